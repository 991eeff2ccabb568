import MemoLibrary

/// `voicememo --complete-memos`, for the shell completions: every memo's id, then every
/// title, one per line; titles that a line cannot hold as typed (control characters,
/// line breaks) are left out. Prints nothing (exit 1) when the library cannot be opened:
/// a completion must never print an error into the user's command line.
enum MemoCompletion {
    static func run(context: CommandContext) -> ExitCode {
        let quiet = CommandContext(
            console: Console(writeOutput: context.console.writeOutput, writeError: { _ in }), environment: context.environment)
        guard let library = try? LibraryAccess.open(quiet, fileCheck: .names),
            let memos = try? library.memos()
        else { return .failure }
        var lines = memos.map { String($0.id) }
        lines += memos.map(\.title).filter { title in
            !title.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
        }
        for line in lines { context.console.printLine(line) }
        return .success
    }
}
