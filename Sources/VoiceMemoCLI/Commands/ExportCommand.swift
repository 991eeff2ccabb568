import SoundFiles
import ArgumentParsing

/// `voicememo export MEMO PATH [--format F]`: write a copy of a memo to a file.
enum ExportCommand: SubcommandDefinition {
    static let path = Positional<String>(
        name: "PATH", help: "The file to write.", parser: .nonEmptyText)
    static let format = Option<FileFormat>(
        name: "format", valueName: "F",
        help: "The file format: wav, flac, ogg, opus, mp3, caf or aiff.",
        defaultDescription: "from PATH's extension", parser: .choice)

    static let specification = CommandSpecification(
        name: "export", abstract: "Write a copy of a memo to a file, converting if needed.",
        options: [format], positionals: [SharedArguments.memo, path])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> ExportOptions {
        ExportOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo),
            path: try arguments.requiredValue(of: path),
            format: try arguments.value(of: format))
    }

    static func implementation(in implementations: CommandImplementations) -> CommandImplementation<ExportOptions>? {
        implementations.export
    }
}
