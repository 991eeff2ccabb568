import Platform
import Interface
import Audio
import Foundation
import Metering
import AppRuntime
import SoundFiles
import Vocabulary

/// Everything `voicememo meter` needs once its arguments are parsed.
struct MeterRequest {
    var source: InputSource
    var duration: Double?
    var json = false
    var loudness = false
    var sampleRate: Int
    var channels: Int
    var paced = true
    /// `--alert-above …`: the noise alert (`MeterAlert`).
    var alert: AlertOptions?
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
            if let interrupted = StopSignals.interruptedWhileOpening("the input") {
                console.printErrorMessage(interrupted)
                return ExitCode.interrupted
            }
            console.printErrorMessage(error.messageWithHint)
            return error.kind == .settings ? ExitCode.usageError : ExitCode.failure
        }
        let rate = engine.format.sampleRate
        let analysis = InputAnalysis(
            engine: engine, overflow: .wait, measuresMeterModes: false, measuresProgramme: request.loudness)
        let alert = request.alert.map { MeterAlert($0, engine: engine) }

        engine.start(frameLimit: request.duration.map { Int(($0 * Double(rate)).rounded()) })
        let live = !request.json && console.isOutputTerminal
        let summary = watch(engine, analysis: analysis, alert: alert, request: request, live: live, console: console)
        analysis.detach()
        alert?.finish(to: console, json: request.json, live: live)
        let loudness = analysis.programme
        if live { console.writeOutput("\n") }
        if let error = engine.error {
            console.printErrorMessage(error.message)
            return ExitCode.failure
        }
        let seconds = Double(summary.frames) / Double(rate)
        let clips = engine.totalClipCount
        if request.json {
            console.printJSON(summaryJSON(seconds: seconds, summary: summary, loudness: loudness, clips: clips).serialized)
        } else {
            console.printLine("whole run (\(DisplayFormat.elapsedTime(seconds: seconds))):")
            console.printLine("  " + levelsText(average: summary.average, peak: summary.peak, input: request.source.name) + "   clips \(clips)")
            if let loudness {
                console.printLine("  " + LoudnessText.summary(loudness))
            }
        }
        return ExitCode.success
    }

    /// Every 100 ms until the duration is reached, the input ends or a signal comes: analyses
    /// what arrived, reports the noise alert, and prints the levels (a live line on a
    /// terminal, a line or a JSON object otherwise) with any change of the input's diagnosis.
    ///
    /// - Returns: the levels over the whole run.
    private static func watch(
        _ engine: CaptureEngine, analysis: InputAnalysis, alert: MeterAlert?, request: MeterRequest, live: Bool,
        console: Console
    ) -> MeterSummary {
        let rate = engine.format.sampleRate
        var summary = MeterSummary(channels: engine.format.channels)
        var lastFrames = 0
        var diagnosis: InputDiagnosis?
        var switchesSaid = 0
        while true {
            usleep(100_000)
            // A source gone and replaced by the default (`on_source_lost = default`): said once.
            for change in engine.inputSwitches.dropFirst(switchesSaid) {
                if live { console.writeOutput("\r\u{1B}[K") }
                console.printErrorMessage(InputSwitchText.sentence(change))
                switchesSaid += 1
            }
            // Read before a stop, which ends a stall as it ends capture.
            let secondsWithoutAudio = engine.secondsWithoutAudio
            let done = StopSignals.pending != nil || engine.hasEnded
            if done { engine.stop() }
            // Analyse first, then read the meter and the count: both then cover at least what
            // the diagnosis has judged, and `t` is never earlier than the audio behind it (an
            // unpaced source runs ahead of this loop: reading the count first reported a
            // diagnosis made at 2 s of audio with the t of 0.78 s).
            analysis.update()
            alert?.report(to: console, json: request.json, live: live)
            engine.updateMeters()
            let captured = max(engine.capturedFrames, analysis.analysedFrames)
            let loudness = analysis.programme
            let levels = Levels(engine: engine)
            summary.add(frames: captured - lastFrames, average: levels.average, peak: levels.peak)
            lastFrames = captured
            let current: InputDiagnosis? =
                secondsWithoutAudio >= InputDiagnosis.noAudioAfter ? .noAudio : analysis.diagnosis
            // An input that never delivers still gets its updates: they say so.
            if captured > 0 || done || current != nil {
                let time = Double(captured) / Double(rate)
                let changed = current != diagnosis
                diagnosis = current
                if request.json {
                    console.printJSON(
                        update(
                            time: time, levels: levels, loudness: loudness, diagnosis: diagnosis,
                            secondsWithoutAudio: secondsWithoutAudio, clips: engine.totalClipCount
                        ).serialized)
                } else {
                    // A change gets a line of its own, above the live line.
                    if changed { console.printLine((live ? "\r\u{1B}[K" : "") + DiagnosisText.change(to: diagnosis, at: time)) }
                    if live {
                        console.writeOutput("\r" + text(time: time, levels: levels, loudness: loudness, input: request.source.name) + "\u{1B}[K")
                    } else {
                        console.printLine(text(time: time, levels: levels, loudness: loudness, input: request.source.name))
                    }
                }
            }
            if done { break }
        }
        return summary
    }

    private static func channelsJSON(average: [Float], peak: [Float]) -> JSONValue {
        .array(zip(average, peak).map { average, peak in
            .object([("avg_db", .number(Double(average))), ("peak_db", .number(Double(peak)))])
        })
    }

    private static func update(
        time: Double, levels: Levels, loudness: ProgrammeMeter?, diagnosis: InputDiagnosis?, secondsWithoutAudio: Double,
        clips: Int
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("t", .number(time)),
            ("channels", channelsJSON(average: levels.average, peak: levels.peak)),
            ("clips", .int(Int64(clips))),
            ("diagnosis", DiagnosisText.json(diagnosis, secondsWithoutAudio: secondsWithoutAudio)),
        ]
        if let loudness {
            members.append(("momentary_lufs", .lufs(loudness.loudness?.momentaryLoudness)))
            members.append(("short_term_lufs", .lufs(loudness.loudness?.shortTermLoudness)))
        }
        return .object(members)
    }

    private static func summaryJSON(seconds: Double, summary: MeterSummary, loudness: ProgrammeMeter?, clips: Int) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("summary", true),
            ("t", .number(seconds)),
            ("channels", channelsJSON(average: summary.average, peak: summary.peak)),
            ("clips", .int(Int64(clips))),
        ]
        if let loudness {
            members.append(("integrated_lufs", .lufs(loudness.statistics.loudnessLUFS)))
            members.append(("lra", .lufs(loudness.statistics.loudnessRange)))
            members.append(("true_peak_dbtp", .number(Double(loudness.truePeak.truePeakLevel))))
        }
        return .object(members)
    }

    private static func text(time: Double, levels: Levels, loudness: ProgrammeMeter?, input: InputName) -> String {
        var line = String(format: "%7.2f s  ", time) + levelsText(average: levels.average, peak: levels.peak, input: input)
        if let loudness {
            line += "   M \(LoudnessText.text(loudness.loudness?.momentaryLoudness)) S \(LoudnessText.text(loudness.loudness?.shortTermLoudness))"
        }
        return line
    }

    /// "L rms -15.0 pk -12.0   R rms …": the channels and readings named as the app's meter
    /// names them in its digital mode (the RMS level and the sample peak).
    private static func levelsText(average: [Float], peak: [Float], input: InputName) -> String {
        let reading = MeterMode.digital.descriptor.readingLabel
        return zip(average, peak).enumerated().map { channel, levels in
            "\(ChannelLabel.name(channel, of: average.count, input: input)) \(reading) \(DisplayFormat.decibels(levels.0)) pk \(DisplayFormat.decibels(levels.1))"
        }.joined(separator: "   ")
    }
}

/// How `meter --loudness` words the programme's figures (`ProgrammeMeter`, fed by the
/// command's `InputAnalysis` on its own thread: the gating lists allocate, which the capture
/// thread must not).
enum LoudnessText {
    static func summary(_ programme: ProgrammeMeter) -> String {
        let statistics = programme.statistics
        return "integrated \(text(statistics.loudnessLUFS))   range \(statistics.loudnessRange.map { String(format: "%.1f LU", $0) } ?? "—")"
            + "   true peak \(String(format: "%.1f dBTP", programme.truePeak.truePeakLevel))"
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
