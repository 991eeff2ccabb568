import Audio
import Dispatch
import Foundation
import Metering
import SoundFiles

/// Everything `voicememo record` needs once its arguments are parsed.
struct RecordRequest {
    var output: String
    var settings: RecordingSettings
    var source: InputSource
    var duration: Double?
    var delay: Double?
    var metadata = SoundFileMetadata()
    var json = false
    /// Generated sources in real time (false only in tests, through VOICEMEMO_UNPACED).
    var paced = true
}

/// Runs a recording to its end: duration reached, input exhausted, a signal, or an error.
enum RecordRunner {
    static func run(_ request: RecordRequest, console: Console) -> ExitCode {
        StopSignals.install()
        defer { StopSignals.uninstall() }
        let finished = DispatchSemaphore(value: 0)
        let events = RecorderEvents(didFinishRecording: { _ in finished.signal() })
        let recorder: Recorder
        do {
            recorder = try Recorder(
                url: request.output, settings: request.settings, input: request.source,
                metadata: request.metadata, paced: request.paced,
                eventQueue: DispatchQueue(label: "voicememo.record.events"), events: events)
            try recorder.prepareToRecord()
            if let delay = request.delay {
                try recorder.record(atTime: recorder.deviceCurrentTime + delay, forDuration: request.duration)
            } else if let duration = request.duration {
                try recorder.record(forDuration: duration)
            } else {
                try recorder.record()
            }
        } catch {
            console.printErrorMessage(error.message)
            return error.kind == .settings ? ExitCode.usageError : ExitCode.failure
        }


        let live = console.isErrorTerminal && !request.json ? LiveLine(console: console, channels: request.settings.channels) : nil
        var summary = MeterSummary(channels: request.settings.channels)
        var lastFrames = 0
        while finished.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if StopSignals.pending != nil { break }
            recorder.updateMeters()
            let captured = Int(recorder.deviceCurrentTime * Double(request.settings.sampleRate))
            let levels = Levels(recorder: recorder, channels: request.settings.channels)
            summary.add(frames: captured - lastFrames, average: levels.average, peak: levels.peak)
            lastFrames = captured
            live?.show(recorder: recorder, levels: levels, peak: summary.peak)
        }
        recorder.stop()
        recorder.updateMeters()
        let levels = Levels(recorder: recorder, channels: request.settings.channels)
        summary.add(frames: max(1, recorder.recordedFrames - lastFrames), average: levels.average, peak: levels.peak)
        live?.clear()

        if let signal = StopSignals.pending, recorder.recordedFrames == 0 {
            _ = try? recorder.deleteRecording()
            console.printErrorMessage("interrupted by \(StopSignals.name(signal)) before anything was recorded")
            return ExitCode.interrupted
        }
        let statistics = recorder.statistics
        if let error = recorder.error {
            console.printErrorMessage("\(error.message) (kept \(request.output): \(DisplayFormat.elapsedTime(seconds: Double(statistics.framesWritten) / Double(request.settings.sampleRate))) recorded)")
            return ExitCode.failure
        }
        if statistics.overruns > 0 {
            console.printErrorMessage("warning: \(statistics.overruns) overrun(s), \(statistics.lostFrames) frame(s) lost")
        }
        if statistics.droppedFrames > 0 {
            console.printErrorMessage("warning: the disk fell behind; \(statistics.droppedFrames) frame(s) dropped")
        }
        if request.json {
            console.printLine(RecordingReport(request: request, statistics: statistics, peak: summary.peak.max() ?? -160).json)
        } else {
            console.printLine(request.output)
        }
        return ExitCode.success
    }
}

/// One snapshot of every channel's levels.
struct Levels {
    var average: [Float]
    var peak: [Float]

    init(recorder: Recorder, channels: Int) {
        average = (0..<channels).map { recorder.averagePower(forChannel: $0) }
        peak = (0..<channels).map { recorder.peakPower(forChannel: $0) }
    }

    init(engine: CaptureEngine) {
        average = (0..<engine.format.channels).map { engine.averagePower(forChannel: $0) }
        peak = (0..<engine.format.channels).map { engine.peakPower(forChannel: $0) }
    }
}
