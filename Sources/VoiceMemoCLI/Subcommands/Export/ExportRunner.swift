import Platform
import Foundation
import SoundFiles
import MemoLibrary
import Vocabulary

/// `export`: a memo copied out of the library, as audio in a chosen format and/or labels.
///
/// MEMO is an id or a unique title prefix; an ambiguous prefix exits 2 listing the candidates,
/// a memo that is not there exits 1.
enum ExportRunner {
    static func run(_ options: ExportOptions, context: CommandContext) throws -> ExitCode {
        if options.path == ExportToStandardOutput.name, let format = options.transcript {
            return try printTranscript(options, format: format, context: context)
        }
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
                memo, to: options.path, labels: options.labels, format: options.format, replacing: options.force,
                transcript: options.transcript)
            plan.loudness = options.loudness
            plan.enhance = options.enhance
            let targets = [plan.audio?.destination.target, plan.labels?.target].compactMap { $0 }
            for folder in Set(targets.map(OutputDestination.folder(of:))) {
                reportRemoved(ExportLeftovers.removeAbandoned(in: folder), in: folder, console: context.console)
            }
            UsableSamples.forgetRepairs(readingPath: memo.path)
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
        if let repaired = UsableSamples.repairs(readingPath: plan.memo.path).sentence {
            context.console.printErrorMessage("note: in memo \(plan.memo.id), \(repaired)")
        }
        context.console.reply(.exported(plan.memo, to: plan.paths, normalised: normalised))
        if let normalised, !context.console.isOutputTerminal {
            context.console.printErrorMessage("note: " + CommandReply.normalisation(normalised))
        }
        return .success
    }

    /// `export MEMO - --transcript T`: the transcript as a document on standard output.
    private static func printTranscript(_ options: ExportOptions, format: TranscriptFormat, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context, fileCheck: .names)
        defer { library.close() }
        let (memo, transcript) = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: options.memo)
            return (memo, try library.exportableTranscript(of: memo))
        }
        context.console.writeOutput(TranscriptDocument.text(transcript, format: format, title: memo.title, duration: memo.duration))
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
}

/// The live line of a normalised export on a terminal's stderr:
/// "exporting memo 3 “Standup”: normalising, encoding MP3: 40 %".
enum ExportProgressLine {
    static func text(_ memo: Memo, _ progress: ExportProgress) -> String {
        let percent = progress.fraction.map { ": \(Int((min(max($0, 0), 1) * 100).rounded(.down))) %" } ?? "…"
        return "exporting memo \(memo.id) “\(TerminalText.safe(String(memo.title.prefix(40))))”: \(progress.description)\(percent)"
    }
}
