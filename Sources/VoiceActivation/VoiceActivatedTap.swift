import Audio
import Dispatch
import SoundFiles
import Synchronization

/// Voice-activated recording's frames: the capture thread keeps the recent frames in a
/// history; `VoiceActivatedRecorder`'s analysis thread analyses them in 10 ms blocks (level,
/// speech, the detector) and feeds each take's frames to its sink.
///
/// The analysis runs on a thread of its own, never the capture thread: WebRTC's detector and
/// the voicing check are C++ and a correlation per block, more than the capture loop may do;
/// nor the controller's, which its owner blocks for a whole replay. A take's file is opened by
/// the recorder's controller thread, after the take has started: opening a
/// file is I/O, which the capture thread never does. Until the sink arrives the take's frames
/// wait in the history, which also holds the pre-roll; each take is then fed from the history,
/// so its first frame is exactly trigger − pre-roll. If the history would overwrite frames not
/// yet analysed, or frames a kept take still needs, the capture thread waits for the analysis
/// or the controller (as `RecordingSink` waits for its writer): an unpaced source is slowed to
/// their pace. A take too short to keep needs no file and is passed over at once.
///
/// `ignoringInput` is read by the capture thread for each chunk it keeps, and the analysis
/// applies it to those frames: the replay's own sound is ignored however far the analysis lags.
final class VoiceActivatedTap: CaptureTap, Sendable {
    /// One take as both sides see it.
    struct Slot {
        var start: VoiceActivation.TakeStart
        var end: VoiceActivation.TakeEnd?
        /// Where the take is written, once the controller has opened it.
        var sink: RecordingSink?
        /// The controller gave up on a file for this take (discarded, or the file failed).
        var skip = false
        /// The next frame to feed.
        var fed: Int
    }

    /// What the capture side and the controller exchange, under a short lock.
    struct Handoff {
        var slots: [Slot?]
        /// Takes started so far (slot `n % slots.count` holds take `n`).
        var started = 0
        /// Takes fed to their end (or skipped).
        var finishedFeeding = 0
        /// Takes the controller has collected.
        var collected = 0
        var inputEnded = false
        var inputError: CaptureError?
        var status: VoiceActivationStatus
        var droppedFrames = 0
    }

    /// The history and the analysis: the capture thread appends, the analysis thread analyses.
    private struct CaptureSide {
        var detector: VoiceActivation
        /// One past the last frame analysed.
        var analysedFrame: Int
        /// The input ended (or the owner stops): analyse what is left, then finish.
        var endRequested = false
        var finished = false
        /// Where `ignoringInput` changed, as the capture thread saw it: (first frame, ignoring),
        /// oldest at `changesStart`; room for `ignoreChangeCapacity`, allocated once.
        var ignoreChanges: [(frame: Int, ignoring: Bool)]
        var changesStart = 0
        var changesCount = 0
        /// `ignoringInput` at the last chunk captured, and at the block being analysed.
        var capturedIgnoring = false
        var analysedIgnoring = false
    }

    /// Changes of `ignoringInput` the capture side keeps for the analysis (more between two
    /// analyses are merged: the newest wins).
    static let ignoreChangeCapacity = 32

    /// Judges each 10 ms block for speech beside its level; `nil` with `listensForSpeech` off
    /// (or a rate it cannot take, when the level alone decides). Used under `captureSide`'s lock.
    nonisolated(unsafe) private let speechDetector: SpeechDetector?
    /// Frames before the analysis position the history keeps: the pre-roll and the speech
    /// look-back of a take that starts at the next block, with room to spare.
    private let keptBeforeAnalysis: Int

    /// How many takes may be in flight between the capture side and the controller.
    static let slotCount = 64
    /// Frames per analysis block: 10 ms, so a chunk of any size is judged the same way.
    let blockFrames: Int
    let format: StreamFormat
    let settings: VoiceActivationSettings

    private let history: FrameHistory
    private let captureSide: Mutex<CaptureSide>
    private let handoff: Mutex<Handoff>
    private let abandoned = Atomic<Bool>(false)
    /// The owner's `VoiceActivatedRecorder.setIgnoringInput`: blocks go to `VoiceActivation.ignore`.
    let ignoringInput = Atomic<Bool>(false)
    /// Wakes the analysis: frames arrived, or input ended.
    let changed = DispatchSemaphore(value: 0)
    /// Wakes the controller: something was analysed (a take may have started or ended), or input ended.
    let serviceNeeded = DispatchSemaphore(value: 0)
    /// Wakes a capture thread waiting for the controller.
    let sinkArrived = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - settings: validated settings.
    ///   - format: the engine's format.
    ///   - firstFrame: the engine's frame count when attaching (no pre-roll before it).
    ///   - backlog: seconds of audio the history holds beyond the pre-roll while a file opens.
    init(settings: VoiceActivationSettings, format: StreamFormat, firstFrame: Int, backlog: Double = 8) {
        self.settings = settings
        self.format = format
        blockFrames = max(1, format.sampleRate / 100)
        let largestChunk = max(1024, format.sampleRate / 6)
        let capacity = Int((settings.preRoll + backlog) * Double(format.sampleRate)) + 2 * largestChunk
        history = FrameHistory(capacity: capacity, bytesPerFrame: format.bytesPerFrame, firstFrame: firstFrame)
        speechDetector = settings.listensForSpeech ? try? SpeechDetector(format: format) : nil
        let detector = VoiceActivation(settings: settings, sampleRate: format.sampleRate, firstFrame: firstFrame)
        keptBeforeAnalysis = Int((settings.preRoll + VoiceActivation.speechLookBack + 0.2) * Double(format.sampleRate))
        captureSide = Mutex(CaptureSide(
            detector: detector, analysedFrame: firstFrame,
            ignoreChanges: Array(repeating: (0, false), count: Self.ignoreChangeCapacity)))
        handoff = Mutex(Handoff(
            slots: Array(repeating: nil, count: Self.slotCount), status: VoiceActivationStatus(detector)))
    }

    // MARK: CaptureTap (the capture thread)

    package func capture(_ buffer: UnsafeRawPointer, frames: Int, firstFrame: Int) {
        let ignoring = ignoringInput.load(ordering: .acquiring)
        waitForRoom(until: firstFrame + frames, ignoring: ignoring)
        captureSide.withLock { side in
            if ignoring != side.capturedIgnoring {
                side.capturedIgnoring = ignoring
                if side.changesCount == Self.ignoreChangeCapacity {
                    side.changesStart = (side.changesStart + 1) % Self.ignoreChangeCapacity
                    side.changesCount -= 1
                }
                side.ignoreChanges[(side.changesStart + side.changesCount) % Self.ignoreChangeCapacity] = (firstFrame, ignoring)
                side.changesCount += 1
            }
            history.append(buffer, frames: frames, firstFrame: firstFrame)
            feed(analysedUpTo: side.analysedFrame)
        }
        changed.signal()
    }

    package func captureEnded(error: CaptureError?) {
        endInput(error: error)
    }

    // MARK: The controller's side

    /// Analyses the frames captured since the last call in 10 ms blocks (a shorter last block
    /// once input has ended), records the takes that start and end, and feeds them; once input
    /// has ended and everything is analysed, ends a take in progress there. Returns whether
    /// anything was analysed. Called on the analysis thread.
    @discardableResult
    func analyse() -> Bool {
        var progressed = false
        while true {
            // A slice at a time, so the capture thread never waits long for the lock.
            let more = captureSide.withLock { side -> Bool in
                guard !side.finished else { return false }
                // Frames the history no longer holds (captured while the input was ignored, when
                // the capture thread does not wait for the analysis) are passed over as ignored.
                if side.analysedFrame < history.oldestFrame {
                    let gap = history.oldestFrame - side.analysedFrame
                    let step = side.detector.ignore(frames: gap, firstFrame: side.analysedFrame)
                    if step.ended != nil || step.started != nil { record(step.ended, step.started) }
                    side.analysedFrame = history.oldestFrame
                }
                var blocks = 0
                var changes = false
                while blocks < 16 {
                    let available = history.endFrame - side.analysedFrame
                    let count = min(blockFrames, available)
                    guard count == blockFrames || (side.endRequested && count > 0) else { break }
                    let first = side.analysedFrame
                    var step = VoiceActivation.Step()
                    while side.changesCount > 0, side.ignoreChanges[side.changesStart].frame <= first {
                        side.analysedIgnoring = side.ignoreChanges[side.changesStart].ignoring
                        side.changesStart = (side.changesStart + 1) % Self.ignoreChangeCapacity
                        side.changesCount -= 1
                    }
                    if side.analysedIgnoring {
                        step = side.detector.ignore(frames: count, firstFrame: first)
                    } else {
                        history.withFrames(from: first, to: first + count) { start, frames, runFirst in
                            let level = BlockLevel(start, frames: frames, format: format)
                            speechDetector?.quietestSpeechDB = side.detector.stopThresholdDB
                            speechDetector?.learnsRoom = side.detector.phase != .recording
                            let speech = speechDetector?.consume(start, frames: frames)
                            let part = side.detector.consume(
                                peak: level.peak, rms: level.rms, frames: frames, firstFrame: runFirst, speech: speech)
                            if part.ended != nil { step.ended = part.ended }
                            if part.started != nil { step.started = part.started }
                        }
                    }
                    if step.ended != nil || step.started != nil {
                        record(step.ended, step.started)
                        changes = true
                    }
                    side.analysedFrame = first + count
                    blocks += 1
                }
                var finishedNow = false
                if side.endRequested, side.analysedFrame >= history.endFrame {
                    if let ended = side.detector.finish(atFrame: history.endFrame) { record(ended, nil) }
                    side.finished = true
                    finishedNow = true
                }
                let status = VoiceActivationStatus(side.detector)
                handoff.withLock { handoff in
                    handoff.status = status
                    if finishedNow { handoff.inputEnded = true }
                }
                feed(analysedUpTo: side.analysedFrame)
                if blocks > 0 || changes || finishedNow { progressed = true }
                return blocks == 16
            }
            sinkArrived.signal()
            if !more { break }
        }
        return progressed
    }

    /// The input ended (or the owner stops): the analysis analyses what is left and ends a
    /// take in progress there. Idempotent.
    func endInput(error: CaptureError? = nil) {
        captureSide.withLock { $0.endRequested = true }
        handoff.withLock { handoff in
            if handoff.inputError == nil { handoff.inputError = error }
        }
        changed.signal()
    }

    /// Feeds takes whose sink has arrived (the controller calls this once input has ended).
    func feedPending() {
        captureSide.withLock { side in feed(analysedUpTo: side.analysedFrame) }
    }

    /// Stops waiting for the controller (it is going away): frames a take still needed are lost.
    func abandon() {
        abandoned.store(true, ordering: .releasing)
        sinkArrived.signal()
    }

    /// Reads or changes the exchanged state.
    func withHandoff<Result>(_ body: (inout Handoff) -> Result) -> Result {
        handoff.withLock { body(&$0) }
    }

    // MARK: Private (capture side)

    private func record(_ ended: VoiceActivation.TakeEnd?, _ started: VoiceActivation.TakeStart?) {
        handoff.withLock { handoff in
            if let ended, handoff.started > 0 {
                handoff.slots[(handoff.started - 1) % Self.slotCount]?.end = ended
            }
            if let started {
                handoff.slots[handoff.started % Self.slotCount] = Slot(start: started, fed: started.startFrame)
                handoff.started += 1
            }
        }
    }

    /// Waits while appending frames up to `end` would overwrite frames not yet analysed (with
    /// the pre-roll before them) or frames an unfed take needs, or while too many takes are in
    /// flight. Waits outside the lock, so the analysis and the controller can go on meanwhile.
    /// While the input is ignored it does not wait for the analysis: what it would analyse is
    /// ignored anyway.
    private func waitForRoom(until end: Int, ignoring: Bool) {
        while !abandoned.load(ordering: .acquiring) {
            let blocked = captureSide.withLock { side -> Bool in
                feed(analysedUpTo: side.analysedFrame)
                if !ignoring, side.analysedFrame < history.endFrame,
                    side.analysedFrame - keptBeforeAnalysis < end - history.capacity
                {
                    return true
                }
                return takesBlock(until: end)
            }
            guard blocked else { return }
            changed.signal()
            serviceNeeded.signal()
            _ = sinkArrived.wait(timeout: .now() + .milliseconds(50))
        }
    }

    /// Whether an unfed take needs frames that appending up to `end` would overwrite, or too
    /// many takes are in flight.
    private func takesBlock(until end: Int) -> Bool {
        do {
            let blocked = handoff.withLock { handoff -> Bool in
                if handoff.started - handoff.collected > Self.slotCount - 20 { return true }
                guard handoff.finishedFeeding < handoff.started,
                    let slot = handoff.slots[handoff.finishedFeeding % Self.slotCount]
                else { return false }
                return slot.fed < end - history.capacity
            }
            return blocked
        }
    }

    /// Feeds each take, oldest first, from the history into its sink, up to its end or, while
    /// its end is not known, to the last frame analysed (a frame past it may be past the end).
    /// Stops at the first take whose sink has not arrived.
    private func feed(analysedUpTo analysed: Int) {
        while true {
            let next = handoff.withLock { handoff -> (Int, Slot)? in
                guard handoff.finishedFeeding < handoff.started,
                    let slot = handoff.slots[handoff.finishedFeeding % Self.slotCount]
                else { return nil }
                return (handoff.finishedFeeding, slot)
            }
            guard let (number, slot) = next else { return }
            // A take that ended too short to keep needs no file: it is passed over here, so its
            // frames never hold the history while the controller is busy (a replay playing).
            if slot.skip || (slot.sink == nil && slot.end?.keep == false) {
                advance(past: number)
                continue
            }
            guard let sink = slot.sink else { return }
            let target = slot.end?.endFrame ?? min(analysed, history.endFrame)
            var lost = 0
            if slot.fed < target {
                lost = max(0, min(target, history.oldestFrame) - slot.fed)
                history.withFrames(from: slot.fed, to: target) { start, frames, first in
                    sink.capture(start, frames: frames, firstFrame: first)
                }
            }
            let fed = max(slot.fed, min(target, history.endFrame))
            let done = slot.end != nil && fed >= target
            handoff.withLock { handoff in
                handoff.slots[number % Self.slotCount]?.fed = fed
                handoff.droppedFrames += lost
            }
            guard done else { return }
            advance(past: number)
        }
    }

    private func advance(past number: Int) {
        handoff.withLock { $0.finishedFeeding = number + 1 }
        serviceNeeded.signal()
    }
}
