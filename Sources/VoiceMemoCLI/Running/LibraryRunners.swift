import Platform
import Foundation
import MemoLibrary
import Vocabulary

/// `list`, `rename`, `delete`, `restore`, `purge`, `export`: the library commands.
///
/// MEMO is an id or a unique title prefix; an ambiguous prefix exits 2 listing the candidates,
/// a memo that is not there exits 1.
enum LibraryRunners {
    static func list(_ options: ListOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(
            context, fileCheck: .names, pendingRecoveries: options.noWait ? .leave : .finish)
        let memos = try LibraryAccess.perform { () throws(MemoLibraryError) in try library.memos(deleted: options.deleted) }
        if options.json {
            let (transcripts, markers) = try LibraryAccess.perform { () throws(MemoLibraryError) in
                (try library.transcriptStates(), try library.allMarkers())
            }
            context.console.printJSON(Memo.jsonText(of: memos, transcripts: transcripts, markers: markers))
        } else {
            let width = TerminalWidth.columns(environment: context.environment, isTerminal: context.console.isOutputTerminal)
            let table = MemoTable(memos: memos, width: width, deleted: options.deleted, timeZone: .current)
            context.console.writeOutput(table.rendered)
        }
        return .success
    }

    static func rename(_ options: RenameOptions, context: CommandContext) throws -> ExitCode {
        try MemoTitleCheck.check(options.title)
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: options.memo)
            return try library.rename(id: memo.id, to: options.title)
        }
        if let shared = library.sharedFileReason(memo), memo.state == .complete || memo.state == .recovered {
            context.console.printErrorMessage("note: the new title is kept in the index only: \(shared)")
        } else if !library.titleIsWrittenToFile(memo) {
            context.console.printErrorMessage(indexOnlyRenameNote(memo))
        }
        context.console.reply(.renamed(memo))
        return .success
    }

    /// Why a renamed memo's file does not carry its new title (an index rebuilt from the files
    /// would show the old one).
    static func indexOnlyRenameNote(_ memo: Memo) -> String {
        switch memo.state {
        case .recording: "note: memo \(memo.id) is being recorded; its file gets the new title when the recording stops"
        case .missing: "note: memo \(memo.id)'s file is missing; the new title is kept in the index only"
        case .damaged: "note: memo \(memo.id)'s file cannot be read; the new title is kept in the index only"
        case .complete, .recovered:
            "note: the new title is kept in the index only: a \(memo.format.displayName) file coded as "
                + "\(memo.encoding.rawValue) cannot be re-tagged without encoding its audio again"
        }
    }

    static func delete(_ options: DeleteOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            try library.delete(id: try library.memo(matching: options.memo).id, at: Date())
        }
        context.console.reply(.deleted(memo))
        return .success
    }

    static func restore(_ options: RestoreOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            try library.restore(id: try library.memo(matching: options.memo, deleted: true).id)
        }
        context.console.reply(.restored(memo))
        return .success
    }

    /// `recover`: opening the library finishes the dead recordings (saying so, with progress,
    /// on standard error); this says when there was nothing to do, and fails while a memo
    /// still waits for room or the library cannot be written.
    static func recover(context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        defer { library.close() }
        let maintenance = library.maintenance
        if !maintenance.waitingForRoom.isEmpty { return .failure }
        if !maintenance.pendingRecoveries.isEmpty {
            let count = maintenance.pendingRecoveries.count
            context.console.printErrorMessage(
                "\(count) memo\(count == 1 ? "" : "s") \(count == 1 ? "waits" : "wait") to be recovered, but "
                    + (library.isReadOnly ? "the library cannot be written (\(library.folder))" : "another process is recovering or recording")
            )
            return .failure
        }
        if maintenance.recovered.isEmpty { context.console.printErrorMessage("nothing to recover") }
        return .success
    }

    static func purge(_ options: PurgeOptions, context: CommandContext) throws -> ExitCode {
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

    static func export(_ options: ExportOptions, context: CommandContext) throws -> ExitCode {
        if options.path == ExportToStandardOutput.name {
            return try ExportToStandardOutput.run(options, context: context)
        }
        let library = try LibraryAccess.open(context)
        // Every destination is checked before anything is written (`planExport`).
        let line = context.console.isErrorTerminal && options.loudness != nil ? LevelBars(console: context.console, channels: 0) : nil
        var shown = ""
        defer { if !shown.isEmpty { line?.clear() } }
        let (plan, normalised) = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: options.memo)
            var plan = try library.planExport(
                memo, to: options.path, labels: options.labels, format: options.format, replacing: options.force)
            plan.loudness = options.loudness
            plan.enhance = options.enhance
            let targets = [plan.audio?.destination.target, plan.labels?.target].compactMap { $0 }
            for folder in Set(targets.map(OutputDestination.folder(of:))) {
                reportRemoved(ExportLeftovers.removeAbandoned(in: folder), in: folder, console: context.console)
            }
            let normalised = try SignalCleanup.removing(targets.flatMap(ExportLeftovers.temporaries(for:))) {
                () throws(MemoLibraryError) in
                try library.perform(plan) { progress in
                    let text = ExportProgressLine.text(memo, progress)
                    if let line, text != shown {
                        shown = text
                        line.redraw(text)
                    }
                }
            }
            return (plan, normalised)
        }
        if !shown.isEmpty { line?.clear() }
        shown = ""
        if let given = options.path, let written = plan.audio?.destination.path,
            let note = ExportNameNote.text(given: given, written: written)
        {
            context.console.printErrorMessage(note)
        }
        context.console.reply(.exported(plan.memo, to: plan.paths, normalised: normalised))
        if let normalised, !context.console.isOutputTerminal {
            context.console.printErrorMessage("note: " + CommandReply.normalisation(normalised))
        }
        return .success
    }

    /// Says which files a killed export left in `folder` were just removed.
    private static func reportRemoved(_ removed: [ExportLeftovers.Removed], in folder: String, console: Console) {
        guard !removed.isEmpty else { return }
        let bytes = removed.reduce(Int64(0)) { $0 + $1.size }
        console.printErrorMessage(
            "removed \(removed.count) hidden \(removed.count == 1 ? "file" : "files") (\(MemoTable.sizeText(bytes))) that an "
                + "interrupted export left in \(TerminalText.safe(folder)): "
                + removed.map { TerminalText.safe(URL(fileURLWithPath: $0.path).lastPathComponent) }.joined(separator: ", "))
    }

    static func mark(_ options: MarkOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let seconds = Double(options.time.components.seconds) + Double(options.time.components.attoseconds) / 1e18
        let (memo, outcome) = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: options.memo)
            return (memo, try library.addMarker(Marker(time: seconds, label: options.label ?? ""), toMemo: memo.id))
        }
        if case .failed(let reason) = outcome {
            context.console.printErrorMessage("the marker is kept in the index, but not written into the memo's file: \(reason)")
        } else if let shared = library.sharedFileReason(memo) {
            context.console.printErrorMessage("note: the marker is kept in the index only: \(shared)")
        }
        context.console.reply(.marked(memo, at: seconds, label: options.label ?? ""))
        return .success
    }
}

/// Title checks done before the library is even opened, so a bad title is a usage error (exit 2).
enum MemoTitleCheck {
    static func check(_ title: String) throws {
        do {
            _ = try MemoTitle.accepted(title)
        } catch {
            throw LibraryAccess.failure(.invalidTitle(error))
        }
    }
}

extension LibraryRunners {
    /// `voicememo --complete-memos`, for the shell completions: every memo's id, then every
    /// title, one per line; titles that a line cannot hold as typed (control characters,
    /// line breaks) are left out. Prints nothing (exit 1) when the library cannot be opened:
    /// a completion must never print an error into the user's command line.
    static func completeMemos(context: CommandContext) -> ExitCode {
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

/// The live line of a normalised export on a terminal's stderr:
/// "exporting memo 3 “Standup”: normalising, encoding MP3: 40 %".
enum ExportProgressLine {
    static func text(_ memo: Memo, _ progress: ExportProgress) -> String {
        let percent = progress.fraction.map { ": \(Int((min(max($0, 0), 1) * 100).rounded(.down))) %" } ?? "…"
        return "exporting memo \(memo.id) “\(TerminalText.safe(String(memo.title.prefix(40))))”: \(progress.description)\(percent)"
    }
}
