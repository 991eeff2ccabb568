import VoiceActivation
import Platform
import Audio
import Dispatch
import Foundation
import MemoLibrary
import Vocabulary
import Metering
import AppRuntime
import SoundFiles
import Synchronization

/// `voicememo record --vox`: listens until stopped (a signal) or until `--duration` of input,
/// and makes one memo per utterance, each titled with its start time.
///
/// A take that starts opens a memo (`beginRecording`); a take that ends with enough sound
/// finishes it and prints its id (or its JSON line), one that does not is abandoned and
/// leaves nothing behind.
enum VoxRunner {
    static func run(_ request: RecordRequest, settings: VoiceActivationSettings, context: CommandContext) throws
        -> ExitCode
    {
        let console = context.console
        let library = try LibraryAccess.open(context, pendingRecoveries: .leave)
        StopSignals.install()
        defer { StopSignals.uninstall() }
        let format = StreamFormat(
            sampleRate: request.settings.sampleRate, channels: request.settings.channels,
            sampleFormat: request.settings.preferredSampleFormat)
        let engine = try openEngine(request, format: format)
        let eventLog = EventLog(environment: request.eventLogEnvironment)
        defer { eventLog?.close() }
        // A stop signal ends a replay at once (the loop below then stops the recorder, which
        // joins the thread that replays); the end of `--duration` lets the last one play.
        let replay = request.replayPitch.map { _ in TakeReplay(interruption: { StopSignals.pending != nil }) }
        let live = console.isErrorTerminal && !request.json
        let lines = VoxLines(console: console, live: live)
        let takes = TakeBook(
            library: library, title: request.title, settings: request.settings, json: request.json, console: console,
            replay: replay, replayPitch: request.replayPitch ?? 0, eventLog: eventLog, lines: lines,
            channelRoles: request.source.name.channelRoles(channels: request.settings.channels),
            inputSwitches: { engine.inputSwitches }, sampleRate: format.sampleRate)
        let startedAt = Date()
        let rate = Double(format.sampleRate)
        let recorder: VoiceActivatedRecorder
        do {
            recorder = try VoiceActivatedRecorder(
                settings: settings, recordingSettings: request.settings, engine: engine, measuresStatistics: true,
                events: VoiceActivationEvents(
                    destination: { info throws(RecorderError) in
                        try takes.begin(info, at: startedAt.addingTimeInterval(Double(info.startFrame) / rate))
                    },
                    takeDidFinish: { finished in takes.finish(finished) }))
        } catch {
            engine.stop()
            throw CommandFailure(error.message, exitCode: error.kind == .settings ? .usageError : .failure)
        }
        replay?.attach(recorder)
        engine.start(frameLimit: request.duration.map { Int(($0 * rate).rounded()) })
        var announcements = VoxAnnouncements(settings: settings)
        listen(engine, recorder: recorder, takes: takes, announcements: &announcements, lines: lines, eventLog: eventLog)
        recorder.stop()
        // The analysis may still have been behind the input's end at the loop's last look (a
        // file read whole on a loaded machine); once stopped, it has heard everything.
        for line in announcements.lines(after: recorder.status) {
            lines.printAbove { $0.writeError(line + "\n") }
        }
        engine.stop()
        lines.clear()
        if console.isErrorTerminal {
            console.writeError(Self.summary(ids: takes.keptIDs) + "\n")
        }
        if let error = recorder.inputError ?? engine.error {
            console.printErrorMessage(error.message)
            return .failure
        }
        if recorder.droppedFrames > 0 {
            console.printErrorMessage("warning: \(recorder.droppedFrames) frame(s) dropped while opening memo files")
        }
        return takes.failed ? .failure : .success
    }

    /// Opens the input in the recording's format, for the engine the takes are cut from.
    ///
    /// - Throws: `CommandFailure`: the input cannot be opened (or a stop came while it
    ///   opened), or it delivers another rate or channel count than asked for.
    private static func openEngine(_ request: RecordRequest, format: StreamFormat) throws -> CaptureEngine {
        do {
            let source = try request.source.open(format: format, paced: request.paced)
            guard source.format.sampleRate == format.sampleRate, source.format.channels == format.channels else {
                source.close()
                throw CommandFailure("\(request.source) delivers \(source.format.sampleRate) Hz, \(source.format.channels) ch, but the recording asks for \(format.sampleRate) Hz, \(format.channels) ch; use --rate \(source.format.sampleRate) --channels \(source.format.channels)", exitCode: .usageError)
            }
            return CaptureEngine(source: source)
        } catch let error as RecorderError {
            if let interrupted = StopSignals.interruptedWhileOpening("the input") {
                throw CommandFailure(interrupted + "; nothing was recorded", exitCode: .interrupted)
            }
            throw CommandFailure(error.messageWithHint, exitCode: error.kind == .settings ? .usageError : .failure)
        }
    }

    /// Listens until the input ends (`--duration`) or a stop signal comes, saying every 100 ms
    /// what the detector hears (on a terminal: `live`) and, as they happen, the threshold
    /// calibration found and whether the room's noise is close to it.
    ///
    /// The status read after the input ended is the last one here, and it is always read:
    /// unpaced input (a file) can be read whole before the first look (this thread held up on a
    /// loaded machine). The caller reads it once more after stopping the recorder, whose
    /// analysis may still be behind the input's end.
    private static func listen(
        _ engine: CaptureEngine, recorder: VoiceActivatedRecorder, takes: TakeBook,
        announcements: inout VoxAnnouncements, lines: VoxLines, eventLog: EventLog?
    ) {
        var listening = false
        var switchesSaid = 0
        while true {
            // Read before the status, so the status read once this is true is the final one.
            let ended = engine.hasEnded || StopSignals.pending != nil
            if !listening, engine.capturedFrames > 0 {
                listening = true
                eventLog?.note("vox_listening")
            }
            // A source gone and replaced by the default (`on_source_lost = default`): said once;
            // the take it falls in keeps a marker (`TakeBook.finish`).
            for change in engine.inputSwitches.dropFirst(switchesSaid) {
                lines.printAbove { $0.printErrorMessage(InputSwitchText.sentence(change)) }
                eventLog?.note(InputSwitchText.event(change))
                switchesSaid += 1
            }
            let status = recorder.status
            for line in announcements.lines(after: status) {
                lines.printAbove { $0.writeError(line + "\n") }
            }
            if lines.live {
                let line =
                    engine.isStalled
                    ? InputDiagnosis.noAudio.message
                    : recorder.isIgnoringInput
                        ? "replaying the last take (not listening) · \(takes.keptCount) memo\(takes.keptCount == 1 ? "" : "s")"
                        : statusLine(status, kept: takes.keptCount)
                lines.show(line)
            }
            if ended { return }
            usleep(100_000)
        }
    }

    /// What a run kept, said at its end on a terminal: "Saved 2 memos (ids 17, 18)".
    static func summary(ids: [Int64]) -> String {
        switch ids.count {
        case 0: "No memo was saved: no take had enough sound"
        case 1: "Saved 1 memo (id \(ids[0]))"
        default: "Saved \(ids.count) memos (ids \(ids.map(String.init).joined(separator: ", ")))"
        }
    }

    /// `listening · -52.3 dB (start -40.0, room -55) · 2 memos` or `recording · silence 1.2/2.0 s · …`.
    static func statusLine(_ status: VoiceActivationStatus, kept: Int) -> String {
        let room = status.noiseFloorDB.map { String(format: ", room %.0f", $0) } ?? ""
        let level = String(format: "%.1f dB (start %.1f", status.levelDB, status.startThresholdDB) + room + ")"
        let memos = "\(kept) memo\(kept == 1 ? "" : "s")"
        switch status.phase {
        case .calibrating: return "measuring the noise floor · \(level) · \(memos)"
        case .armed: return "listening · \(level) · \(memos)"
        case .recording:
            return "recording · silence " + String(format: "%.1f/%.1f s", status.silence, status.hangTime)
                + " · \(level) · \(memos)"
        }
    }
}

/// What `record --vox` says on standard error as the detector's status changes: the threshold
/// its calibration found (once), and each time the room's noise comes close to the threshold
/// or goes back under it.
struct VoxAnnouncements {
    /// What a room close to the threshold risks: by level alone, takes that do not end; with
    /// the speech detector (takes end after the last speech), voices farther off starting takes.
    static func closeRoomRisk(_ status: VoiceActivationStatus) -> String {
        status.hearsSpeech == nil ? "takes may not end" : "distant voices may start takes"
    }

    private let calibrationMargin: Double
    private var calibrating: Bool
    private var roomWasClose = false

    init(settings: VoiceActivationSettings) {
        calibrationMargin = settings.calibrationMargin
        calibrating = settings.calibrationTime != nil
    }

    /// The lines `status` calls for, given what was said before.
    mutating func lines(after status: VoiceActivationStatus) -> [String] {
        var lines: [String] = []
        if calibrating, status.phase != .calibrating {
            calibrating = false
            lines.append(String(format: "threshold %.1f dB: the room's level + %.0f dB", status.startThresholdDB, calibrationMargin))
        }
        if status.isNoiseCloseToThreshold != roomWasClose, let floor = status.noiseFloorDB {
            roomWasClose = status.isNoiseCloseToThreshold
            lines.append(
                roomWasClose
                    ? String(format: "warning: room noise %.0f dB is close to the %.0f dB threshold: %@; raise --vox-threshold", floor, status.startThresholdDB, Self.closeRoomRisk(status))
                    : String(format: "room noise %.0f dB is back under the %.0f dB threshold by %.0f dB or more", floor, status.startThresholdDB, VoiceActivation.noiseMargin))
        }
        return lines
    }
}

/// The memos of a `record --vox` run: begun when a take starts, finished or abandoned when it ends.
///
/// Called on the voice-activated recorder's thread.
final class TakeBook: Sendable {
    private struct State {
        var recordings: [Int: MemoRecording] = [:]
        var kept: [Int64] = []
        var failed = false
    }

    // Used only from the recorder's controller thread, one call at a time, after the
    // main thread opened it and before it reads anything again.
    nonisolated(unsafe) private let library: MemoLibrary
    private let title: String?
    private let settings: RecordingSettings
    /// A meeting's channel roles, which every take keeps.
    private let channelRoles: ChannelRoles?
    /// The input's switches so far (a sound server's source replaced by the default), each
    /// kept as a marker in the take it falls in; frames at `sampleRate`.
    private let inputSwitches: @Sendable () -> [InputSwitch]
    private let sampleRate: Int
    private let json: Bool
    private let console: Console
    /// `--replay`: each kept take is played back at `replayPitch` semitones.
    private let replay: TakeReplay?
    private let replayPitch: Double
    private let eventLog: EventLog?
    /// Where ids go: above the live line, never glued onto it.
    private let lines: VoxLines
    private let state = Mutex(State())

    init(
        library: MemoLibrary, title: String?, settings: RecordingSettings, json: Bool, console: Console,
        replay: TakeReplay? = nil, replayPitch: Double = 0, eventLog: EventLog? = nil, lines: VoxLines? = nil,
        channelRoles: ChannelRoles? = nil, inputSwitches: @escaping @Sendable () -> [InputSwitch] = { [] }, sampleRate: Int = 48_000
    ) {
        self.lines = lines ?? VoxLines(console: console, live: false)
        self.channelRoles = channelRoles
        self.inputSwitches = inputSwitches
        self.sampleRate = sampleRate
        self.library = library
        self.title = title
        self.settings = settings
        self.json = json
        self.console = console
        self.replay = replay
        self.replayPitch = replayPitch
        self.eventLog = eventLog
    }

    var keptCount: Int { state.withLock { $0.kept.count } }
    /// The ids of the memos kept, in the order they were saved.
    var keptIDs: [Int64] { state.withLock { $0.kept } }
    var failed: Bool { state.withLock { $0.failed } }

    func begin(_ info: TakeInfo, at date: Date) throws(RecorderError) -> TakeDestination {
        let recording: MemoRecording
        do {
            recording = try library.beginRecording(
                title: Self.title(title, at: date), settings: settings, at: date, channelRoles: channelRoles)
        } catch {
            throw RecorderError(.file, error.description)
        }
        state.withLock { $0.recordings[info.number] = recording }
        var metadata = recording.metadata
        metadata.software = Product.software
        return TakeDestination(url: recording.memo.path, metadata: metadata)
    }

    func finish(_ take: FinishedTake) {
        let recording = state.withLock { $0.recordings.removeValue(forKey: take.info.number) }
        if let error = take.error {
            console.printErrorMessage(error.message)
            state.withLock { $0.failed = true }
        }
        guard let recording else { return }
        do {
            guard take.kept || (take.error != nil && take.framesWritten > 0) else {
                try library.abandonRecording(recording)
                return
            }
            let memo = try library.finishRecording(recording, statistics: take.statistics)
            state.withLock { $0.kept.append(memo.id) }
            markSwitches(in: take, memo: memo.id)
            lines.printAbove { $0.printJSON(json ? memo.jsonText : String(memo.id)) }
            do {
                try replay?.replay(memo.path, memoID: memo.id, pitchSemitones: replayPitch, eventLog: eventLog)
            } catch {
                console.printErrorMessage("cannot replay memo \(memo.id): \(error.message)")
            }
        } catch {
            console.printErrorMessage(error.description)
            state.withLock { $0.failed = true }
        }
    }

    /// A marker in memo `memo` for each input switch within `take`'s frames, where it happened.
    private func markSwitches(in take: FinishedTake, memo: Int64) {
        for change in inputSwitches() where (take.info.startFrame..<take.endFrame).contains(change.afterFrames) {
            let time = Double(change.afterFrames - take.info.startFrame) / Double(sampleRate)
            do {
                _ = try library.addMarker(Marker(time: time, label: InputSwitchText.markerLabel(change)), toMemo: memo)
            } catch {
                console.printErrorMessage("cannot mark memo \(memo) where the input changed: \(error.description)")
            }
        }
    }

    /// `Memo 2026-11-29 14:03:12` (or `TITLE 2026-11-29 14:03:12` with `--title`), local time.
    static func title(_ prefix: String?, at date: Date) -> String {
        MemoTitle.defaultTitle(for: date, timeZone: .current, prefix: prefix ?? "Memo")
    }
}

/// `record --vox`'s lines on a terminal: the live status line on standard error, redrawn in
/// place, and what is printed above it (ids on standard output, announcements on standard
/// error), each after the live line is cleared and before it is drawn again, one at a time:
/// ids come from the recorder's thread, the live line from the main one, and on one
/// terminal an id written after the live line would be glued onto it ("… · 0 memos17").
final class VoxLines: Sendable {
    let console: Console
    /// Whether a live line is drawn (standard error is a terminal, no `--json`).
    let live: Bool
    /// The live line shown now ("" when none).
    private let shown = Mutex("")

    init(console: Console, live: Bool) {
        self.console = console
        self.live = live
    }

    /// Draws `line` over the live line.
    func show(_ line: String) {
        guard live else { return }
        shown.withLock { shown in
            shown = line
            console.writeError("\r" + line + "\u{1B}[K")
        }
    }

    /// Runs `print` with the live line cleared, then draws the live line again under what it printed.
    func printAbove(_ print: (Console) -> Void) {
        shown.withLock { shown in
            if live { console.writeError("\r\u{1B}[K") }
            print(console)
            if live, !shown.isEmpty { console.writeError("\r" + shown + "\u{1B}[K") }
        }
    }

    /// Clears the live line for good.
    func clear() {
        guard live else { return }
        shown.withLock { shown in
            shown = ""
            console.writeError("\r\u{1B}[K")
        }
    }
}
