import Audio
import Foundation
import Metering
import SoundFiles

/// Everything `voicememo meter` needs once its arguments are parsed.
struct MeterRequest {
    var source: InputSource
    var duration: Double?
    var json = false
    var loudness = false
    var sampleRate = 48000
    var channels = 2
    var paced = true
}

/// Shows levels until the duration is reached, the input ends, or a signal comes;
/// then prints the summary over the whole run. Nothing is saved.
enum MeterRunner {
    static func run(_ request: MeterRequest, console: Console) -> ExitCode {
        StopSignals.install()
        defer { StopSignals.uninstall() }
        let format = StreamFormat(sampleRate: request.sampleRate, channels: request.channels, sampleFormat: .float32)
        let engine: CaptureEngine
        do {
            engine = CaptureEngine(source: try request.source.open(format: format, paced: request.paced))
        } catch {
            console.printErrorMessage(error.messageWithHint)
            return error.kind == .settings ? ExitCode.usageError : ExitCode.failure
        }
        let rate = engine.format.sampleRate
        let channels = engine.format.channels
        var loudness = request.loudness ? LoudnessAnalysis(engine: engine) : nil
        let analysis = InputAnalysis(engine: engine, overflow: .wait, measuresMeterModes: false)
        var diagnosis: InputDiagnosis?

        engine.start(frameLimit: request.duration.map { Int(($0 * Double(rate)).rounded()) })
        var summary = MeterSummary(channels: channels)
        var lastFrames = 0
        let live = !request.json && console.isOutputTerminal
        while true {
            usleep(100_000)
            let done = StopSignals.pending != nil || engine.hasEnded
            if done { engine.stop() }
            engine.updateMeters()
            loudness?.update()
            let captured = engine.capturedFrames
            analysis.update(at: Double(captured) / Double(rate))
            let levels = Levels(engine: engine)
            summary.add(frames: captured - lastFrames, average: levels.average, peak: levels.peak)
            lastFrames = captured
            if captured > 0 || done {
                let time = Double(captured) / Double(rate)
                let changed = analysis.diagnosis != diagnosis
                diagnosis = analysis.diagnosis
                if request.json {
                    console.printLine(update(time: time, levels: levels, loudness: loudness, diagnosis: diagnosis).serialized)
                } else {
                    // A change gets a line of its own, above the live line.
                    if changed { console.printLine((live ? "\r\u{1B}[K" : "") + DiagnosisText.change(to: diagnosis, at: time)) }
                    if live {
                        console.writeOutput("\r" + text(time: time, levels: levels, loudness: loudness) + "\u{1B}[K")
                    } else {
                        console.printLine(text(time: time, levels: levels, loudness: loudness))
                    }
                }
            }
            if done { break }
        }
        loudness?.detach()
        analysis.detach()
        if live { console.writeOutput("\n") }
        if let error = engine.error {
            console.printErrorMessage(error.message)
            return ExitCode.failure
        }
        let seconds = Double(summary.frames) / Double(rate)
        if request.json {
            console.printLine(summaryJSON(seconds: seconds, summary: summary, loudness: loudness).serialized)
        } else {
            console.printLine("whole run (\(DisplayFormat.elapsedTime(seconds: seconds))):")
            console.printLine("  " + levelsText(average: summary.average, peak: summary.peak))
            if let loudness {
                console.printLine("  " + loudness.summaryText)
            }
        }
        return ExitCode.success
    }

    private static func channelsJSON(average: [Float], peak: [Float]) -> JSONValue {
        .array(zip(average, peak).map { average, peak in
            .object([("avg_db", .number(Double(average))), ("peak_db", .number(Double(peak)))])
        })
    }

    private static func update(time: Double, levels: Levels, loudness: LoudnessAnalysis?, diagnosis: InputDiagnosis?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("t", .number(time)),
            ("channels", channelsJSON(average: levels.average, peak: levels.peak)),
            ("diagnosis", DiagnosisText.json(diagnosis)),
        ]
        if let loudness {
            members.append(("momentary_lufs", .lufs(loudness.meter.momentaryLoudness)))
            members.append(("short_term_lufs", .lufs(loudness.meter.shortTermLoudness)))
        }
        return .object(members)
    }

    private static func summaryJSON(seconds: Double, summary: MeterSummary, loudness: LoudnessAnalysis?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("summary", true),
            ("t", .number(seconds)),
            ("channels", channelsJSON(average: summary.average, peak: summary.peak)),
        ]
        if let loudness {
            members.append(("integrated_lufs", .lufs(loudness.meter.integratedLoudness)))
            members.append(("lra", .lufs(loudness.meter.loudnessRange)))
            members.append(("true_peak_dbtp", .number(Double(loudness.truePeak.truePeakLevel))))
        }
        return .object(members)
    }

    private static func text(time: Double, levels: Levels, loudness: LoudnessAnalysis?) -> String {
        var line = String(format: "%7.2f s  ", time) + levelsText(average: levels.average, peak: levels.peak)
        if let loudness {
            line += "   M \(LoudnessAnalysis.text(loudness.meter.momentaryLoudness)) S \(LoudnessAnalysis.text(loudness.meter.shortTermLoudness))"
        }
        return line
    }

    private static func levelsText(average: [Float], peak: [Float]) -> String {
        zip(average, peak).enumerated().map { channel, levels in
            "ch\(channel + 1) avg \(DisplayFormat.decibels(levels.0)) pk \(DisplayFormat.decibels(levels.1))"
        }.joined(separator: "   ")
    }
}

/// EBU R128 loudness and true peak of everything the engine captures, measured on the
/// command's own thread from an `AnalysisTap` (the gating lists allocate, which the
/// capture thread must not).
struct LoudnessAnalysis {
    private let tap: AnalysisTap
    private(set) var meter: LoudnessMeter
    private(set) var truePeak: TruePeakMeter

    init(engine: CaptureEngine) {
        tap = AnalysisTap(engine: engine)
        meter = LoudnessMeter(channels: engine.format.channels, sampleRate: engine.format.sampleRate)
        truePeak = TruePeakMeter(channels: engine.format.channels, sampleRate: engine.format.sampleRate)
    }

    /// Measures what was captured since the last call.
    mutating func update() {
        let channels = tap.format.channels
        var meter = self.meter
        var truePeak = self.truePeak
        tap.drain { frames, count in
            let samples = UnsafeBufferPointer(start: frames.assumingMemoryBound(to: Float.self), count: count * channels)
            meter.consume(samples)
            truePeak.consume(samples)
        }
        self.meter = meter
        self.truePeak = truePeak
    }

    func detach() {
        tap.detach()
    }

    var summaryText: String {
        "integrated \(Self.text(meter.integratedLoudness))   range \(meter.loudnessRange.map { String(format: "%.1f LU", $0) } ?? "—")"
            + "   true peak \(String(format: "%.1f dBTP", truePeak.truePeakLevel))"
    }

    static func text(_ lufs: Double?) -> String {
        guard let lufs, lufs.isFinite else { return "—" }
        return String(format: "%.1f LUFS", lufs)
    }
}

extension JSONValue {
    /// A loudness figure, `null` when there is none (too short, or silence).
    static func lufs(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(value)
    }
}
