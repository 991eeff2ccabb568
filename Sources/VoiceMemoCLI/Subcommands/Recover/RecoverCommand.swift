import ArgumentParsing

/// `voicememo recover`: finish the memos whose recording was killed or stopped by a full disk.
enum RecoverCommand: SubcommandDefinition {
    static let file = Positional<String>(
        name: "FILE",
        help: "A file `record --output FILE` was writing in MP3, Ogg Vorbis, M4A or CAF when it was killed: "
            + "its recording is finished from what it kept beside it (.FILE.partial.w64). Without FILE, the "
            + "library's memos.",
        isOptional: true, parser: .nonEmptyText)

    static let specification = CommandSpecification(
        name: "recover", abstract: "Finish memos left by a killed recording or one a full disk stopped.",
        discussion: "A recording in MP3, Ogg Vorbis, M4A or CAF (ALAC) is kept whole in an intermediate file "
            + "until it is encoded. When the process was killed, or the disk filled before the encode was done, "
            + "the memo waits in state `recording`; this encodes and measures each such memo, printing the "
            + "progress on standard error (Ctrl-C stops; the memo is kept for the next time). `list` and the "
            + "app do the same when they open the library. Exits 1 while a memo still waits for room.",
        positionals: [file])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> RecoverOptions {
        RecoverOptions(file: try arguments.value(of: file))
    }

    static func run(_ options: RecoverOptions, context: CommandContext) throws -> ExitCode {
        if let file = options.file { return try RecoverFileRunner.run(file, context: context) }
        return try RecoverRunner.run(context: context)
    }
}
