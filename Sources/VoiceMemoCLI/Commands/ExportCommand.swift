import SoundFiles
import ArgumentParsing

/// `voicememo export MEMO PATH [--format F]`: write a copy of a memo to a file.
enum ExportCommand: SubcommandDefinition {
    static let path = Positional<String>(
        name: "PATH", help: "The file to write.", parser: ValueParser.nonEmptyText.completing(.file))
    static let format = Option<FileFormat>(
        name: "format", valueName: "F",
        help: "The file format: wav, flac, ogg, opus, mp3, caf or aiff.",
        defaultDescription: "from PATH's extension", parser: .choice)

    static let force = Flag(
        name: "force", help: "Replace a file already at PATH (only once the new copy is complete).")

    static let specification = CommandSpecification(
        name: "export", abstract: "Write a copy of a memo to a file, converting if needed.",
        discussion: "An existing file at PATH is never replaced unless --force is given; even then "
            + "the copy is written beside it first and renamed over it only when complete, so a "
            + "failed export leaves the old file as it was.",
        options: [format, force], positionals: [SharedArguments.memo, path])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> ExportOptions {
        ExportOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo),
            path: try arguments.requiredValue(of: path),
            format: try arguments.value(of: format),
            force: arguments.isSet(force))
    }

    static func implementation(in implementations: CommandImplementations) -> CommandImplementation<ExportOptions>? {
        implementations.export
    }
}
