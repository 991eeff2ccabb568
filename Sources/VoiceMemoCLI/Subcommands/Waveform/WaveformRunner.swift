import Foundation
import MemoLibrary
import Vocabulary
import Metering

/// `waveform`: a memo's peaks, one per terminal column, as a line of bars or as JSON.
enum WaveformRunner {
    static func run(_ options: WaveformOptions, context: CommandContext) throws -> ExitCode {
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
            context.console.printLine(WaveformLine.heardText(peaks))
        }
        return .success
    }
}
