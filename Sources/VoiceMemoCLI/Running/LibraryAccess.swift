import Foundation
import MemoLibrary

/// Opening the memo library for a command, and turning library errors into command failures.
enum LibraryAccess {
    /// Opens the library where the environment says, telling on standard error what start-up repaired.
    ///
    /// - Parameter fileCheck: `.names` for commands that only read (`list`), see `FileCheck`.
    static func open(_ context: CommandContext, fileCheck: FileCheck = .namesAndSizes) throws -> MemoLibrary {
        let library: MemoLibrary
        do {
            library = try MemoLibrary(
                environment: context.environment, now: Date(), timeZone: .current, fileCheck: fileCheck)
        } catch {
            throw failure(error)
        }
        report(library.maintenance, console: context.console)
        return library
    }

    /// Runs `body`, turning a `MemoLibraryError` into a `CommandFailure` (exit 2 for usage-like ones).
    static func perform<Result>(_ body: () throws(MemoLibraryError) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw failure(error)
        }
    }

    /// The audio file a command argument names: an existing file path as it is, else a
    /// memo by id or unique title prefix (`analyze`, `play`; see `MemoReference`).
    ///
    /// - Throws: `CommandFailure` saying that neither a file nor a memo has that name
    ///   (exit 1), or that a title prefix is ambiguous (exit 2, listing the candidates).
    static func audioPath(for reference: String, context: CommandContext) throws -> String {
        try audioFile(for: reference, context: context).path
    }

    /// `audioPath(for:context:)` and, when `reference` named a memo, its title.
    static func audioFile(for reference: String, context: CommandContext) throws -> (path: String, memoTitle: String?) {
        if FileManager.default.fileExists(atPath: reference) {
            // A directory goes on to the sound-file reader, whose error names it as one.
            return (reference, nil)
        }
        let library = try open(context)
        defer { library.close() }
        do {
            let memo = try library.memo(matching: reference)
            return (memo.path, memo.title)
        } catch .notFound {
            throw CommandFailure("no file or memo named “\(TitleText.escaped(reference))” (`voicememo list` shows the memos)")
        } catch .noMemoWithID(let digits, _, _) {
            throw CommandFailure("no file named “\(digits)” and no memo with id \(digits) (`voicememo list` shows the memos)")
        } catch {
            throw failure(error)
        }
    }

    static func failure(_ error: MemoLibraryError) -> CommandFailure {
        CommandFailure(error.description, exitCode: error.isUsageError ? .usageError : .failure)
    }

    private static func report(_ report: MaintenanceReport, console: Console) {
        if let postponed = report.postponed {
            console.printErrorMessage("warning: \(postponed)")
        }
        if let aside = report.setAsideIndex {
            console.printErrorMessage("the memo index was damaged; kept it as \(aside) and rebuilt the index from the audio files")
        }
        for copy in report.removedCopies {
            console.printErrorMessage(
                "removed \(copy.path) (\(MemoTable.sizeText(copy.size))): "
                    + "a copy an interrupted rename left behind; the memo's own file is whole")
        }
        let notes: [(String, [Int64])] = [
            ("recovered after a crash", report.recovered), ("adopted (found in the folder)", report.adopted),
            ("missing their file", report.missing), ("unreadable (damaged)", report.damaged),
            ("purged after 30 days in Recently Deleted", report.purged),
        ]
        for (what, ids) in notes where !ids.isEmpty {
            let list = ids.prefix(10).map(String.init).joined(separator: ", ") + (ids.count > 10 ? ", …" : "")
            console.printErrorMessage("\(ids.count) memo\(ids.count == 1 ? "" : "s") \(what): \(list)")
        }
    }
}
