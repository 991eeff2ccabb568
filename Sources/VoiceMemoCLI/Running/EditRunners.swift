import Foundation
import MemoLibrary
import Vocabulary
import Metering

/// `trim`, `split` and `enhance`: a memo becomes new memos of chosen frames; the original goes to
/// Recently Deleted. Prints the new ids (or the new memos as JSON), and on standard error where
/// the original went and whether the audio was encoded again.
enum EditRunners {
    static func trim(_ options: TrimOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let result = try LibraryAccess.perform { () throws(MemoLibraryError) -> EditResult in
            let memo = try library.editable(try library.memo(matching: options.memo).id, verb: "trimmed")
            let start = options.from.map { frame($0, of: memo) } ?? 0
            let end = options.to.map { frame($0, of: memo) } ?? memo.frames
            if options.removeSilences {
                let removal = SilenceRemoval(
                    threshold: options.silenceBelow ?? SilenceRemoval.defaultThreshold,
                    keptPause: options.keepPause.map(seconds) ?? SilenceRemoval.defaultKeptPause)
                return try library.removeSilences(id: memo.id, removal, within: start..<max(start, end), at: Date())
            }
            // The parser has --to after --from; a --from past the end (and no --to) is the
            // library's to word, with the memo's length.
            guard start < end || options.to == nil else {
                throw .invalidEdit(memo: memo, reason: "nothing would be kept: --from must come before --to")
            }
            return try library.trim(id: memo.id, keeping: start..<max(start, end), at: Date())
        }
        report(result, json: options.json, context: context)
        return .success
    }

    static func split(_ options: SplitOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let result = try LibraryAccess.perform { () throws(MemoLibraryError) -> EditResult in
            let memo = try library.memo(matching: options.memo)
            return try library.split(id: memo.id, atFrame: frame(options.time, of: memo), at: Date())
        }
        report(result, json: options.json, context: context)
        return .success
    }

    static func enhance(_ options: EnhanceOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let result = try LibraryAccess.perform { () throws(MemoLibraryError) -> EditResult in
            try library.enhance(id: try library.memo(matching: options.memo).id, at: Date())
        }
        report(result, json: options.json, context: context)
        return .success
    }

    /// The frame nearest to `time` in `memo` (its own rate).
    static func frame(_ time: Duration, of memo: Memo) -> Int64 {
        Int64((seconds(time) * Double(memo.sampleRate)).rounded())
    }

    static func seconds(_ time: Duration) -> Double {
        Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    }

    /// "memo 1 is now memo 7", "memo 7 is now memos 8 and 9": an edit makes new memos, with
    /// new ids, so a script holding the old id learns the new ones.
    static func idChange(from original: Memo, to memos: [Memo]) -> String {
        let ids = memos.map { String($0.id) }
        let made = ids.count == 1 ? "memo \(ids[0])" : "memos " + ids.joined(separator: " and ")
        return "memo \(original.id) is now \(made)"
    }

    private static func report(_ result: EditResult, json: Bool, context: CommandContext) {
        if result.reencoded {
            context.console.printErrorMessage(
                "note: \(result.original.encoding.displayName) is lossy: the kept audio was decoded and encoded again")
        }
        context.console.printErrorMessage("note: " + idChange(from: result.original, to: result.memos))
        context.console.printErrorMessage(
            "note: the original, memo \(result.original.id), is in Recently Deleted ('voicememo restore \(result.original.id)' brings it back)")
        if json {
            context.console.printJSON(Memo.jsonText(of: result.memos, replacing: result.original.id))
        } else {
            context.console.reply(.edited(result.memos, from: result.original))
        }
    }
}

extension EditRunners {
    static func waveform(_ options: WaveformOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context, fileCheck: .names)
        let (memo, envelope) = try LibraryAccess.perform { () throws(MemoLibraryError) -> (Memo, PeakEnvelope) in
            let memo = try library.memo(matching: options.memo)
            return (memo, try library.envelope(of: memo))
        }
        let width = options.width
            ?? TerminalWidth.columns(environment: context.environment, isTerminal: context.console.isOutputTerminal)
        let peaks = envelope.columnPeaks(width: width)
        if options.json {
            var writer = JSONWriter()
            writer.raw("{\"id\": ")
            writer.int(memo.id)
            writer.raw(", \"duration\": ")
            writer.number(memo.duration)
            writer.raw(", \"width\": ")
            writer.int(Int64(peaks.count))
            writer.raw(", \"peaks_db\": [")
            for (index, peak) in peaks.enumerated() {
                if index > 0 { writer.raw(", ") }
                writer.number((peak * 10).rounded() / 10)
            }
            writer.raw("]}")
            context.console.printLine(writer.text)
        } else {
            context.console.printLine(WaveformLine.text(peaks))
        }
        return .success
    }
}
