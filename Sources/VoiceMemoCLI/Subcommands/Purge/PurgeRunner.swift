import Platform
import Foundation
import MemoLibrary
import Vocabulary

/// `purge`: a memo, or all of Recently Deleted, deleted for good.
///
/// MEMO is an id or a unique title prefix; an ambiguous prefix exits 2 listing the candidates,
/// a memo that is not there exits 1.
enum PurgeRunner {
    static func run(_ options: PurgeOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        switch options.target {
        case .memo(let reference):
            let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
                let memo = try library.memo(matching: reference, deleted: true)
                try library.purge(id: memo.id)
                return memo
            }
            context.console.reply(.purged(memo))
        case .all:
            guard try confirmPurgeAll(options, library: library, console: context.console) else {
                context.console.printErrorMessage("nothing was purged")
                return .failure
            }
            let ids = try LibraryAccess.perform { () throws(MemoLibraryError) in try library.purgeAll() }
            context.console.reply(.purgedAll(ids))
        }
        return .success
    }

    /// `purge --all` cannot be undone: a person at a terminal is asked first (`--yes` skips
    /// it); without a terminal to ask at, `--yes` is required (a usage error otherwise, so a
    /// script never empties Recently Deleted by a mistyped line).
    private static func confirmPurgeAll(_ options: PurgeOptions, library: MemoLibrary, console: Console) throws -> Bool {
        if options.confirmed { return true }
        let count = try LibraryAccess.perform { () throws(MemoLibraryError) in try library.memos(deleted: true).count }
        if count == 0 { return true }
        let what = "\(count) memo\(count == 1 ? "" : "s") in Recently Deleted"
        guard console.isInputTerminal else {
            throw CommandFailure(
                "purge --all would delete \(what) for good; add --yes to do it without being asked "
                    + "(the input is not a terminal, so nothing could be asked)",
                exitCode: .usageError)
        }
        return console.confirm("Delete \(what) for good? This cannot be undone.")
    }
}
