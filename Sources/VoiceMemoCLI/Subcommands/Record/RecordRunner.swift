import VoiceActivation
import Platform
import Audio
import Dispatch
import Foundation
import MemoLibrary
import Metering
import AppRuntime
import SoundFiles
import Vocabulary

/// Everything `voicememo record` needs once its arguments are parsed.
struct RecordRequest {
    /// The file to write: `--output`, or the new memo's file.
    var output: String
    /// No `--output`: the recording becomes a memo in the library.
    var addsMemo = false
    /// `--title`, for a memo (the default title when `nil`).
    var title: String?
    var settings: RecordingSettings
    var source: InputSource
    var duration: Double?
    var delay: Double?
    /// `--at`: nothing is opened until then.
    var startsAt: ScheduledStart?
    var metadata = SoundFileMetadata()
    var json = false
    /// Generated sources in real time (false only in tests, through VOICEMEMO_UNPACED).
    var paced = true
    /// `--vox`: one memo per utterance (see `VoxRunner`).
    var voiceActivation: VoiceActivationSettings?
    /// `VOICEMEMO_EVENT_LOG`'s file, when set: the first frame's capture time goes there.
    var eventLogEnvironment: [String: String] = [:]
    /// `--play` or `play_after_stop = true`: play the recording once it is saved.
    var playsAfterStop = false
    /// `--replay [--pitch N]`: the semitones each voice take is replayed at; `nil` without it.
    var replayPitch: Double?
    /// `transcribe = auto` without `--no-transcribe`: transcribe the memo once saved, with
    /// this model folder (a memo only: not `--output`, not `--vox`).
    var transcriptionModel: String?
    /// `auto_title` (on unless the config says off): once transcribed, a memo still at its
    /// default title is titled from its first words.
    var titlesFromWords = true
    /// `--captions` or `captions = on` (not with `--vox`): show draft words while recording,
    /// recognised with this model folder.
    var captionModel: String?
}

/// Runs a recording to its end: duration reached, input exhausted, a signal, or an error.
enum RecordRunner {
    /// How a recording ended.
    struct Outcome {
        var exitCode: ExitCode
        /// Whether a file was kept (false when it never started, or was interrupted before any audio).
        var kept: Bool
        /// The highest peak over the run, in dBFS.
        var peak: Float = -160
        var statistics = RecorderStatistics()
        /// What was written, measured by the recorder: only for a memo (`addsMemo`).
        var measured: ProgrammeStatistics?
        /// Where the input went away and the recording went on from another (`InputSwitch`).
        var switchMarkers: [Marker] = []
    }

    /// Records into the library (a new memo) or into `--output`, and prints the result.
    ///
    /// A new memo's id is printed as soon as its input is open, before any audio (an input that
    /// cannot be opened leaves no memo, and prints no id); with `--json` the
    /// whole memo is printed when the recording stops instead. With `--output`, the path (or the
    /// JSON report) is printed at the end.
    static func run(_ request: RecordRequest, context: CommandContext) throws -> ExitCode {
        var request = request
        request.eventLogEnvironment = context.environment
        if let start = request.startsAt {
            guard waitForTheStart(start, request: request, console: context.console) else { return .interrupted }
            // The file's date is when it began, not when it was asked for.
            request.metadata.date = SoundFileMetadata.dateText(secondsSince1970: Date().timeIntervalSince1970)
        }
        if let voiceActivation = request.voiceActivation {
            return try VoxRunner.run(request, settings: voiceActivation, context: context)
        }
        guard request.addsMemo else {
            let outcome = record(request, console: context.console)
            if outcome.kept, outcome.exitCode == .success {
                if request.json {
                    context.console.printJSON(
                        RecordingReport(request: request, statistics: outcome.statistics, peak: outcome.peak).json)
                } else {
                    context.console.printLine(request.output)
                }
            }
            return try playAfterStop(request, file: request.output, outcome: outcome, context: context)
        }
        // Caught from before the id is printed: a script may signal as soon as it has read it (a
        // shell's background job starts with SIGINT ignored, so one sent before `record` set its
        // handlers was lost, and the recording went on). Undone after the recording, so that
        // Ctrl-C during the transcription after it kills as usual.
        StopSignals.install()
        var signalsInstalled = true
        defer { if signalsInstalled { StopSignals.uninstall() } }
        // A killed recording's recovery can take a minute; this one starts now.
        let library = try LibraryAccess.open(context, pendingRecoveries: .leave)
        if let signal = StopSignals.pending {
            context.console.printErrorMessage("interrupted by \(StopSignals.name(signal)) before anything was recorded")
            return .interrupted
        }
        let recording = try LibraryAccess.perform { () throws(MemoLibraryError) in
            try library.beginRecording(
                title: request.title, settings: request.settings, at: Date(),
                channelRoles: request.source.name.channelRoles(channels: request.settings.channels))
        }
        var memoRequest = request
        memoRequest.output = recording.memo.path
        memoRequest.metadata = recording.metadata
        memoRequest.metadata.software = request.metadata.software
        var control: RecordControl?
        let outcome = record(memoRequest, console: context.console) { recorder in
            // At once, not at the end: a script recording for an hour can act on the id meanwhile.
            if !request.json { context.console.printLine(String(recording.memo.id)) }
            control = RecordControl(
                recorder: recorder, memo: recording.memo.id, title: recording.memo.title, context: context)
        }
        control?.close()
        StopSignals.uninstall()
        signalsInstalled = false
        guard outcome.kept else {
            try LibraryAccess.perform { () throws(MemoLibraryError) in try library.abandonRecording(recording) }
            return outcome.exitCode
        }
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            try library.finishRecording(recording, statistics: outcome.measured)
        }
        addMarkers((control?.markers ?? []) + outcome.switchMarkers, to: memo, in: library, console: context.console)
        if outcome.exitCode == .success, request.json {
            context.console.printJSON(memo.jsonText)
        }
        if outcome.exitCode == .success, context.console.isErrorTerminal {
            // For the person at the terminal (the app's words); standard output keeps the id alone.
            context.console.writeError(savedLine(memo) + "\n")
        }
        let status = try playAfterStop(request, file: memo.path, outcome: outcome, context: context)
        if let model = request.transcriptionModel, outcome.exitCode == .success {
            MemoTranscription.transcribeAfterRecording(
                memo, in: library, model: model, titlesFromWords: request.titlesFromWords, context: context)
        }
        return status
    }

    /// The markers the control socket asked for while recording, added once the memo is saved
    /// (a time past its end, as a stop's last frames may make, is its end).
    private static func addMarkers(_ markers: [Marker], to memo: Memo, in library: MemoLibrary, console: Console) {
        for marker in markers {
            do {
                try library.addMarker(Marker(time: min(marker.time, memo.duration), label: marker.label), toMemo: memo.id)
            } catch {
                console.printErrorMessage("the marker at \(DisplayFormat.seconds(marker.time)) was not kept: \(error.description)")
            }
        }
    }

    /// `--at`: sleeps until the start, saying so on a terminal; `false` when a stop signal came
    /// first (nothing was opened or recorded).
    private static func waitForTheStart(_ start: ScheduledStart, request: RecordRequest, console: Console) -> Bool {
        StopSignals.install()
        defer { StopSignals.uninstall() }
        let eventLog = EventLog(environment: request.eventLogEnvironment)
        defer { eventLog?.close() }
        eventLog?.note("scheduled_start", at: start.time)
        let when = ScheduledStart.text(Date(timeIntervalSince1970: start.time), Calendar.current)
        if console.isErrorTerminal {
            let left = DisplayFormat.elapsedTime(seconds: max(0, start.time - Date().timeIntervalSince1970))
            console.printErrorMessage("waiting to record at \(when) (in \(left)); Ctrl-C cancels")
        }
        guard ScheduledStart.wait(until: start.time) else {
            let signal = StopSignals.pending.map(StopSignals.name) ?? "a signal"
            console.printErrorMessage("interrupted by \(signal) before the recording's start at \(when); nothing was recorded")
            return false
        }
        eventLog?.note("scheduled_start_reached")
        return true
    }

    /// "Saved “Standup” (00:00:29), id 29": what a recording kept, as the app says it.
    static func savedLine(_ memo: Memo) -> String {
        "Saved “\(TerminalText.safe(memo.title))” (\(DisplayFormat.elapsedTime(seconds: memo.duration))), id \(memo.id)"
    }

    /// `--play` / `play_after_stop`: plays what was just saved, when the recording ended by
    /// itself (a duration, the input's end). A stop signal asked the whole command to stop, so
    /// nothing plays then; a recording that failed keeps its exit status.
    private static func playAfterStop(
        _ request: RecordRequest, file: String, outcome: Outcome, context: CommandContext
    ) throws -> ExitCode {
        guard request.playsAfterStop, outcome.kept, outcome.exitCode == .success else { return outcome.exitCode }
        if let signal = StopSignals.pending {
            context.console.printErrorMessage("not playing the recording: \(StopSignals.name(signal)) stopped the command")
            return outcome.exitCode
        }
        return try PlayRunner.run(PlayRequest(file: file, device: AutomaticDevices.playbackDevice, start: nil), console: context.console)
    }

    /// Runs a recording to its end: duration reached, input exhausted, a signal, or an error.
    ///
    /// - Parameter started: called once the input is open and the recording has started (or
    ///   waits for `--delay`); never when the input cannot be opened.
    static func record(_ request: RecordRequest, console: Console, started: (Recorder) -> Void = { _ in }) -> Outcome {
        StopSignals.install()
        defer { StopSignals.uninstall() }
        let finished = DispatchSemaphore(value: 0)
        let events = RecorderEvents(didFinishRecording: { _ in finished.signal() })
        let eventLog = EventLog(environment: request.eventLogEnvironment)
        defer { eventLog?.close() }
        eventLog?.note("input_opening")
        let recorder: Recorder
        /// When `--delay` starts the recording, on the device's clock.
        let startTime: Double?
        do {
            (recorder, startTime) = try start(request, events: events)
        } catch {
            if let interrupted = StopSignals.interruptedWhileOpening("the input") {
                console.printErrorMessage(interrupted + "; nothing was recorded")
                return Outcome(exitCode: .interrupted, kept: false)
            }
            console.printErrorMessage(error.messageWithHint)
            return Outcome(exitCode: error.kind == .settings ? .usageError : .failure, kept: false)
        }
        let captions = request.captionModel.flatMap { model in
            recorder.captureEngine.map { engine in
                let output = CaptionOutput(console: console, json: request.json)
                output.start(engine: engine, modelDirectory: model)
                return output
            }
        }
        started(recorder)
        var switchMarkers: [Marker] = []
        let summary = watch(
            recorder, request: request, until: finished, startTime: startTime, eventLog: eventLog, console: console,
            captions: captions, switchMarkers: &switchMarkers)
        var outcome = outcome(of: recorder, request: request, peak: summary.peak.max() ?? -160, console: console)
        outcome.switchMarkers = switchMarkers
        return outcome
    }

    /// Opens the input and starts recording: after `--delay`, for `--duration`.
    ///
    /// - Returns: the recorder, and when `--delay` starts the recording on the device's clock.
    private static func start(
        _ request: RecordRequest, events: RecorderEvents
    ) throws(RecorderError) -> (Recorder, startTime: Double?) {
        let recorder = try Recorder(
            url: request.output, settings: request.settings, input: request.source,
            metadata: request.metadata, paced: request.paced,
            // A memo's figures are measured as it is written; a plain file's are not (they
            // would cost far more CPU than the recording itself).
            measuresStatistics: request.addsMemo, eventQueue: DispatchQueue(label: "voicememo.record.events"), events: events)
        var startTime: Double?
        if let delay = request.delay {
            startTime = recorder.deviceCurrentTime + delay
            try recorder.record(atTime: startTime ?? 0, forDuration: request.duration)
        } else if let duration = request.duration {
            try recorder.record(forDuration: duration)
        } else {
            try recorder.record()
        }
        return (recorder, startTime)
    }

    /// Shows the live line (on a terminal, without `--json`) and notes the event log every
    /// 100 ms until the recording finishes or a stop signal comes, then the encoder's progress
    /// while it catches up. An input that went away and was replaced (`InputSwitch`) is said
    /// once, noted, and kept as a marker at the recording's time when it was seen.
    ///
    /// - Returns: the levels seen over the run.
    private static func watch(
        _ recorder: Recorder, request: RecordRequest, until finished: DispatchSemaphore, startTime: Double?,
        eventLog: EventLog?, console: Console, captions: CaptionOutput? = nil, switchMarkers: inout [Marker]
    ) -> MeterSummary {
        let live = console.isErrorTerminal && !request.json ? LiveLine(console: console, channels: request.settings.channels) : nil
        var summary = MeterSummary(channels: request.settings.channels)
        var lastFrames = 0
        var loggedFirstFrame = false
        let encodingNote = EncodingNote(console: console, format: request.settings.format)
        var liveCleared = false
        var markers: [Marker] = []
        func noteSwitches() {
            for change in recorder.inputSwitches.dropFirst(markers.count) {
                live?.clear()
                console.printErrorMessage(InputSwitchText.sentence(change))
                eventLog?.note(InputSwitchText.event(change))
                markers.append(Marker(time: recorder.currentTime, label: InputSwitchText.markerLabel(change)))
            }
        }
        defer { switchMarkers = markers }
        Waiting.wait(for: finished, tickingAtOnce: false) {
            noteSwitches()
            guard StopSignals.pending == nil, !RecordControl.stopRequested.load(ordering: .relaxed) else { return false }
            if let eventLog {
                if !loggedFirstFrame, let firstFrame = recorder.firstFrameCapturedAt {
                    eventLog.note("first_frame", at: firstFrame)
                    loggedFirstFrame = true
                }
                eventLog.note("recorded \(recorder.recordedFrames)")
            }
            if !recorder.isRecording, recorder.recordedFrames > 0, let progress = recorder.finishingProgress, progress < 1 {
                // The duration is reached: what is left is the encoder's.
                if !liveCleared { live?.clear() }
                liveCleared = true
                encodingNote.show(progress)
                return true
            }
            recorder.updateMeters()
            let captured = Int(recorder.deviceCurrentTime * Double(request.settings.sampleRate))
            let levels = Levels(recorder: recorder, channels: request.settings.channels)
            summary.add(frames: captured - lastFrames, average: levels.average, peak: levels.peak)
            lastFrames = captured
            captions?.flush { live?.clear() }
            live?.show(
                recorder: recorder, levels: levels, peak: summary.peak,
                startsIn: startTime.map { $0 - recorder.deviceCurrentTime }, draft: captions?.liveDraft ?? "")
            return true
        }
        live?.clear()
        noteSwitches()
        captions?.stop { live?.clear() }
        encodingNote.stop(recorder)
        recorder.updateMeters()
        let levels = Levels(recorder: recorder, channels: request.settings.channels)
        summary.add(frames: max(1, recorder.recordedFrames - lastFrames), average: levels.average, peak: levels.peak)
        live?.clear()
        return summary
    }

    /// What the finished recording comes to: nothing kept (interrupted before any audio,
    /// nothing captured or written), kept after an error, or kept, with any warnings printed.
    private static func outcome(of recorder: Recorder, request: RecordRequest, peak: Float, console: Console) -> Outcome {
        if let signal = StopSignals.pending, recorder.recordedFrames == 0 {
            _ = try? recorder.deleteRecording()
            console.printErrorMessage("interrupted by \(StopSignals.name(signal)) before anything was recorded")
            return Outcome(exitCode: .interrupted, kept: false)
        }
        if recorder.recordedFrames == 0 || recorder.statistics.framesWritten == 0 {
            // Nothing captured or nothing written (a full disk at the start, an empty source, a device that gave
            // nothing): a 0-frame file would only be listed as damaged. Leave nothing.
            _ = try? recorder.deleteRecording()
            let cause = recorder.error.map { $0.message + "; " } ?? "the input gave no audio; "
            console.printErrorMessage(cause + "nothing was recorded, so " + (request.addsMemo ? "no memo was kept" : "no file was kept"))
            return Outcome(exitCode: .failure, kept: false)
        }
        let statistics = recorder.statistics
        if let error = recorder.error {
            let recorded = DisplayFormat.elapsedTime(seconds: Double(statistics.framesWritten) / Double(request.settings.sampleRate))
            if case .soundFile(let cause)? = error.cause, cause.waitsForRoom, SoundFileRecovery.needsEncoding(path: request.output) {
                console.printErrorMessage(WaitingForRoomText.recordingKept(
                    cause: cause, recorded: recorded, format: request.settings.format.displayName, memo: request.addsMemo,
                    intermediate: SoundFileRecovery.intermediatePath(for: request.output)))
            } else {
                console.printErrorMessage("\(error.message) (kept \(request.output): \(recorded) recorded)")
            }
            return Outcome(
                exitCode: .failure, kept: true, peak: peak, statistics: statistics, measured: recorder.measuredStatistics)
        }
        if statistics.overruns > 0, case .url = request.source {
            console.printErrorMessage(String(
                format: "warning: the stream dropped %d time(s) and was reconnected; %.2f s (%d frames) not recorded",
                statistics.overruns, Double(statistics.lostFrames) / Double(request.settings.sampleRate), statistics.lostFrames))
        } else if statistics.overruns > 0 {
            console.printErrorMessage("warning: \(statistics.overruns) overrun(s), \(statistics.lostFrames) frame(s) lost")
        }
        if statistics.droppedFrames > 0 {
            console.printErrorMessage("warning: the disk fell behind; \(statistics.droppedFrames) frame(s) dropped")
        }
        if let replaced = statistics.replacedSamples.sentence {
            console.printErrorMessage("warning: \(replaced)")
        }
        return Outcome(
            exitCode: .success, kept: true, peak: peak, statistics: statistics, measured: recorder.measuredStatistics)
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
