import Foundation
import MemoLibrary
import Metering
import SoundFiles
import Vocabulary

/// Runs `voicememo analyze FILE|MEMO [--json]`: measures the file and prints the figures.
enum AnalyzeRunner {
    static func run(_ options: AnalyzeOptions, context: CommandContext) throws -> ExitCode {
        let console = context.console
        let (path, memo) = try LibraryAccess.audioFile(for: options.path, context: context)
        let memoTitle = memo?.title
        let analysis: FileAnalysis
        do {
            analysis = try FileAnalysis.measure(path: path)
        } catch {
            throw CommandFailure(error.description)
        }
        if options.json {
            console.printJSON(json(analysis, path: path, memoTitle: memoTitle).serialized)
        } else {
            for line in text(analysis, path: path, memoTitle: memoTitle) { console.printLine(line) }
        }
        return .success
    }

    /// The JSON object: non-finite and unmeasured values are `null`.
    static func json(_ analysis: FileAnalysis, path: String, memoTitle: String? = nil) -> JSONValue {
        let loudness = analysis.loudness
        return .object((memoTitle.map { [("memo", JSONValue.string($0))] } ?? []) + [
            ("file", .string(path)),
            ("duration", .number(analysis.duration)),
            ("sample_rate", .int(Int64(analysis.info.sampleRate))),
            ("channels", .int(Int64(analysis.info.channels))),
            ("peak_db", .number(Double(analysis.truePeak.samplePeakLevel))),
            ("true_peak_dbtp", .number(Double(analysis.truePeak.truePeakLevel))),
            ("loudness_lufs", number(loudness?.integratedLoudness)),
            ("lra", number(loudness?.loudnessRange)),
            ("clips", .int(Int64(analysis.truePeak.clipCount))),
        ])
    }

    /// One line per figure, for people.
    static func text(_ analysis: FileAnalysis, path: String, memoTitle: String? = nil) -> [String] {
        let info = analysis.info
        let channels = info.channels == 1 ? "1 channel" : "\(info.channels) channels"
        var lines = memoTitle.map { ["memo:                \(TerminalText.safe($0))"] } ?? []
        lines += [
            "file:                \(path)",
            "duration:            \(DisplayFormat.elapsedTime(seconds: analysis.duration)) "
                + "(\(String(format: "%.3f", analysis.duration)) s), \(info.sampleRate) Hz, \(channels)",
            "peak:                \(level(analysis.truePeak.samplePeakLevel, unit: "dBFS"))",
            "true peak:           \(level(analysis.truePeak.truePeakLevel, unit: "dBTP"))",
        ]
        if let loudness = analysis.loudness {
            let missing = analysis.duration < LoudnessMeter.shortestMeasurable
                ? "too short to measure (needs at least \(LoudnessMeter.shortestMeasurable) s, one 400 ms block)"
                : "below the −70 LUFS gate (silence or nearly)"
            lines.append("integrated loudness: \(figure(loudness.integratedLoudness, unit: "LUFS", missing: missing))")
            lines.append("loudness range:      \(figure(loudness.loudnessRange, unit: "LU", missing: "needs 3 s above the gate"))")
        } else {
            lines.append("integrated loudness: not measured (needs \(LoudnessMeter.supportedSampleRates.lowerBound) Hz or more)")
        }
        lines.append("clips:               \(analysis.truePeak.clipCount) (runs of \(ClipRule.consecutiveFullScaleSamples) or more full-scale samples)")
        return lines
    }

    private static func number(_ value: Double?) -> JSONValue {
        value.map(JSONValue.number) ?? .null
    }

    private static func level(_ value: Float, unit: String) -> String {
        value <= Decibels.floor ? "silent" : "\(DisplayFormat.decibels(value, includingUnit: false)) \(unit)"
    }

    private static func figure(_ value: Double?, unit: String, missing: String) -> String {
        guard let value, value.isFinite else { return missing }
        return String(format: "%.1f %@", value, unit)
    }
}
