import Platform
import Foundation
import MemoLibrary
import AppRuntime
import Vocabulary

/// Opening the memo library for a command, and turning library errors into command failures.
enum LibraryAccess {
    /// Opens the library where the environment says, telling on standard error what start-up repaired.
    ///
    /// - Parameter fileCheck: `.names` for commands that only read (`list`), see `FileCheck`.
    /// - Parameter pendingRecoveries: what to do about recordings whose process died, whose
    ///   recovery can take a minute for an hour of MP3 (an encode) — `.finish` them first,
    ///   saying so on standard error with the progress (Ctrl-C stops cleanly: exit 130, the
    ///   memo kept for the next start), or `.leave` them for later (`record`, `list --no-wait`),
    ///   saying which wait.
    static func open(
        _ context: CommandContext, fileCheck: FileCheck = .namesAndSizes, pendingRecoveries: PendingRecoveries = .finish
    ) throws -> MemoLibrary {
        let library: MemoLibrary
        do {
            library = try MemoLibrary(
                environment: context.environment, now: Date(), timeZone: .current, fileCheck: fileCheck,
                recovery: .later)
        } catch {
            throw failure(error)
        }
        report(library.maintenance, console: context.console)
        let pending = library.maintenance.pendingRecoveries
        guard !pending.isEmpty else { return library }
        switch pendingRecoveries {
        case .finish:
            try finishRecoveries(of: library, console: context.console)
        case .leave:
            context.console.printErrorMessage(
                "\(pending.count) memo\(pending.count == 1 ? "" : "s") from a recording that was killed or stopped by a full disk "
                    + "\(pending.count == 1 ? "waits" : "wait") to be recovered (\(idList(pending))); "
                    + "`voicememo list` recovers \(pending.count == 1 ? "it" : "them")")
        }
        return library
    }

    /// What `open` does about recordings whose process died.
    enum PendingRecoveries {
        case finish, leave
    }

    /// Recovers the dead recordings, with a line on standard error per memo and per 10 % of an
    /// encode. SIGINT, SIGTERM or SIGHUP stops after the current slice (≤ 0.1 s of audio).
    private static func finishRecoveries(of library: MemoLibrary, console: Console) throws {
        StopSignals.install()
        defer { StopSignals.uninstall() }
        var current: Int64?
        var shownTenth = -1
        var stoppedAt: RecoveryProgress?
        let recovered = try perform { () throws(MemoLibraryError) -> [Int64] in
            try library.finishPendingRecoveries { progress in
                if StopSignals.pending != nil {
                    stoppedAt = progress
                    return false
                }
                if current != progress.memoID {
                    current = progress.memoID
                    shownTenth = -1
                    let what = progress.encodes ? "encoding it from what the recording left" : "repairing and measuring its file"
                    let title = TerminalText.safe(progress.title)
                    console.printErrorMessage(
                        progress.afterCrash
                            ? "recovering memo \(progress.memoID) “\(title)” after a crash: \(what)…"
                            : "encoding memo \(progress.memoID) “\(title)”, kept whole when the disk filled…")
                }
                let tenth = Int(progress.fraction * 10)
                if progress.encodes, progress.totalFrames > 0, tenth > shownTenth, tenth < 10 {
                    shownTenth = tenth
                    console.printErrorMessage("  encoding memo \(progress.memoID): \(tenth * 10) %")
                }
                return true
            }
        }
        if !recovered.isEmpty {
            console.printErrorMessage(
                "\(recovered.count) memo\(recovered.count == 1 ? "" : "s") recovered after a crash: \(idList(recovered))")
        }
        for waiting in library.maintenance.waitingForRoom {
            console.printErrorMessage(
                "warning: " + WaitingForRoomText.stillWaiting(
                    memoID: waiting.memoID, title: TerminalText.safe(waiting.title), cause: waiting.cause))
        }
        if let signal = StopSignals.pending {
            throw CommandFailure(interruptedRecovery(signal: signal, stoppedAt: stoppedAt?.memoID), exitCode: .interrupted)
        }
    }

    /// What a stop signal during the recoveries says: the memo left for the next time, or — the
    /// signal came after the last recovery's last slice, so nothing was stopped — that they are
    /// all done (it once said "the rest is kept as it was" then).
    static func interruptedRecovery(signal: Int32, stoppedAt memoID: Int64?) -> String {
        let name = StopSignals.name(signal)
        guard let memoID else { return "\(name): stopped after the recoveries had finished; nothing is left to recover" }
        return "\(name): stopped recovering; memo \(memoID) is kept as it was and recovered the next time the library opens"
    }

    private static func idList(_ ids: [Int64]) -> String {
        ids.prefix(10).map(String.init).joined(separator: ", ") + (ids.count > 10 ? ", …" : "")
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

    /// `audioPath(for:context:)` and, when `reference` named a memo, that memo.
    static func audioFile(for reference: String, context: CommandContext) throws -> (path: String, memo: Memo?) {
        if FileManager.default.fileExists(atPath: reference) {
            // A directory goes on to the sound-file reader, whose error names it as one.
            return (reference, nil)
        }
        let library = try open(context)
        defer { library.close() }
        do {
            let memo = try library.memo(matching: reference)
            return (memo.path, memo)
        } catch .notFound {
            throw CommandFailure("no file or memo named “\(TerminalText.safe(reference))” (`voicememo list` shows the memos)")
        } catch .noMemoWithID(let digits, let deleted, true) {
            // Where the memo is, as every other command says it.
            throw failure(.noMemoWithID(digits, inRecentlyDeleted: deleted, onTheOtherSide: true))
        } catch .noMemoWithID(let digits, _, _) {
            throw CommandFailure("no file named “\(digits)” and no memo with id \(digits) (`voicememo list` shows the memos)")
        } catch {
            throw failure(error)
        }
    }

    static func failure(_ error: MemoLibraryError) -> CommandFailure {
        CommandFailure(error.description, exitCode: error.isUsageError ? .usageError : .failure)
    }

    /// What a removed copy was, in words, by what was making it.
    static func removedCopyReason(_ origin: MaintenanceReport.RemovedCopy.Origin) -> String {
        switch origin {
        case .retag: "a copy an interrupted rename or marker change left behind; the memo's own file is whole"
        case .edit: "part of a new memo an interrupted trim, split or silence removal was writing; the original memo is whole"
        }
    }

    private static func report(_ report: MaintenanceReport, console: Console) {
        if let postponed = report.postponed {
            console.printErrorMessage("warning: \(postponed)")
        }
        if let aside = report.setAsideIndex {
            console.printErrorMessage("the memo index was damaged; kept it as \(aside) and rebuilt the index from the audio files")
        }
        for copy in report.removedCopies {
            console.printErrorMessage("removed \(copy.path) (\(MemoTable.sizeText(copy.size))): " + removedCopyReason(copy.origin))
        }
        let notes: [(String, [Int64])] = [
            ("recovered after a crash", report.recovered), ("adopted (found in the folder)", report.adopted),
            ("missing their file", report.missing), ("unreadable (damaged)", report.damaged),
            ("purged after 30 days in Recently Deleted", report.purged),
        ]
        for (what, ids) in notes where !ids.isEmpty {
            console.printErrorMessage("\(ids.count) memo\(ids.count == 1 ? "" : "s") \(what): \(idList(ids))")
        }
    }
}
