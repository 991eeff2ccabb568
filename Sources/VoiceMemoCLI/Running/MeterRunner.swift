import Audio
import Dispatch
import Foundation
import Metering
import SoundFiles
import Synchronization

/// Everything `voicememo meter` needs once its arguments are parsed.
struct MeterRequest {
    var source: InputSource
    var duration: Double?
    var json = false
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

        engine.start(frameLimit: request.duration.map { Int(($0 * Double(rate)).rounded()) })
        var summary = MeterSummary(channels: channels)
        var lastFrames = 0
        let live = !request.json && console.isOutputTerminal
        while true {
            usleep(100_000)
            let done = StopSignals.pending != nil || engine.hasEnded
            if done { engine.stop() }
            engine.updateMeters()
            let captured = engine.capturedFrames
            let levels = Levels(engine: engine)
            summary.add(frames: captured - lastFrames, average: levels.average, peak: levels.peak)
            lastFrames = captured
            if captured > 0 || done {
                let time = Double(captured) / Double(rate)
                if request.json {
                    console.printLine(update(time: time, levels: levels).serialized)
                } else if live {
                    console.writeOutput("\r" + text(time: time, average: levels.average, peak: levels.peak) + "\u{1B}[K")
                } else {
                    console.printLine(text(time: time, average: levels.average, peak: levels.peak))
                }
            }
            if done { break }
        }
        if live { console.writeOutput("\n") }
        if let error = engine.error {
            console.printErrorMessage(error.message)
            return ExitCode.failure
        }
        let seconds = Double(summary.frames) / Double(rate)
        if request.json {
            console.printLine(summaryJSON(seconds: seconds, summary: summary).serialized)
        } else {
            console.printLine("whole run (\(DisplayFormat.elapsedTime(seconds: seconds))): " + levelsText(average: summary.average, peak: summary.peak))
        }
        return ExitCode.success
    }

    private static func update(time: Double, levels: Levels) -> JSONValue {
        .object([
            ("t", .number(time)),
            ("channels", .array(zip(levels.average, levels.peak).map { average, peak in
                .object([("avg_db", .number(Double(average))), ("peak_db", .number(Double(peak)))])
            })),
        ])
    }

    private static func summaryJSON(seconds: Double, summary: MeterSummary) -> JSONValue {
        .object([
            ("summary", true),
            ("t", .number(seconds)),
            ("channels", .array(zip(summary.average, summary.peak).map { average, peak in
                .object([("avg_db", .number(Double(average))), ("peak_db", .number(Double(peak)))])
            })),
        ])
    }

    private static func text(time: Double, average: [Float], peak: [Float]) -> String {
        String(format: "%7.2f s  ", time) + levelsText(average: average, peak: peak)
    }

    private static func levelsText(average: [Float], peak: [Float]) -> String {
        zip(average, peak).enumerated().map { channel, levels in
            "ch\(channel + 1) avg \(DisplayFormat.decibels(levels.0)) pk \(DisplayFormat.decibels(levels.1))"
        }.joined(separator: "   ")
    }
}
