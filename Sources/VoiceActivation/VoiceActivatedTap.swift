import Audio
import Dispatch
import SoundFiles
import Synchronization

/// The capture-thread half of voice-activated recording: measures each block, runs the
/// detector, keeps the recent frames, and feeds each take's frames to its sink.
///
/// A take's file is opened by the controller (`VoiceActivatedRecorder`) on its own
/// thread, after the take has started: opening a file is I/O, which the capture thread
/// never does. Until the sink arrives the take's frames wait in the history, which
/// also holds the pre-roll; each take is then fed from the history, so its first frame
/// is exactly trigger − pre-roll. If the history would overwrite frames a take still
/// needs, the capture thread waits for the controller (as `RecordingSink` waits for its
/// writer): an unpaced source is slowed to the controller's pace.
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

    private struct CaptureSide {
        var detector: VoiceActivation
        var firstChunk = true
    }

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
    /// Wakes the controller: a take started or ended, or input ended.
    let changed = DispatchSemaphore(value: 0)
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
        let detector = VoiceActivation(settings: settings, sampleRate: format.sampleRate, firstFrame: firstFrame)
        captureSide = Mutex(CaptureSide(detector: detector))
        handoff = Mutex(Handoff(
            slots: Array(repeating: nil, count: Self.slotCount), status: VoiceActivationStatus(detector)))
    }

    // MARK: CaptureTap (the capture thread)

    package func capture(_ buffer: UnsafeRawPointer, frames: Int, firstFrame: Int) {
        captureSide.withLock { side in
            waitForRoom(until: firstFrame + frames)
            history.append(buffer, frames: frames, firstFrame: firstFrame)
            var offset = 0
            var changes = false
            let ignoring = ignoringInput.load(ordering: .acquiring)
            while offset < frames {
                let count = min(blockFrames, frames - offset)
                let step: VoiceActivation.Step
                if ignoring {
                    step = side.detector.ignore(frames: count, firstFrame: firstFrame + offset)
                } else {
                    let level = BlockLevel(buffer + offset * format.bytesPerFrame, frames: count, format: format)
                    step = side.detector.consume(peak: level.peak, rms: level.rms, frames: count, firstFrame: firstFrame + offset)
                }
                if step.ended != nil || step.started != nil {
                    record(step.ended, step.started)
                    changes = true
                }
                offset += count
            }
            let status = VoiceActivationStatus(side.detector)
            handoff.withLock { $0.status = status }
            feed()
            if changes { changed.signal() }
        }
    }

    package func captureEnded(error: CaptureError?) {
        endInput(error: error)
    }

    // MARK: The controller's side

    /// Ends a take in progress where the input stopped and feeds what can be fed. Idempotent.
    func endInput(error: CaptureError? = nil) {
        captureSide.withLock { side in
            if let ended = side.detector.finish(atFrame: history.endFrame) { record(ended, nil) }
            let status = VoiceActivationStatus(side.detector)
            handoff.withLock { handoff in
                handoff.status = status
                handoff.inputEnded = true
                if handoff.inputError == nil { handoff.inputError = error }
            }
            feed()
        }
        changed.signal()
    }

    /// Feeds takes whose sink has arrived (the controller calls this once input has ended).
    func feedPending() {
        captureSide.withLock { _ in feed() }
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

    /// Waits while appending frames up to `end` would overwrite frames an unfed take
    /// needs, or while too many takes are in flight.
    private func waitForRoom(until end: Int) {
        while !abandoned.load(ordering: .acquiring) {
            feed()
            let blocked = handoff.withLock { handoff -> Bool in
                if handoff.started - handoff.collected > Self.slotCount - 20 { return true }
                guard handoff.finishedFeeding < handoff.started,
                    let slot = handoff.slots[handoff.finishedFeeding % Self.slotCount]
                else { return false }
                return slot.fed < end - history.capacity
            }
            guard blocked else { return }
            changed.signal()
            _ = sinkArrived.wait(timeout: .now() + .milliseconds(50))
        }
    }

    /// Feeds each take, oldest first, from the history into its sink, up to its end or
    /// to the newest frame. Stops at the first take whose sink has not arrived.
    private func feed() {
        while true {
            let next = handoff.withLock { handoff -> (Int, Slot)? in
                guard handoff.finishedFeeding < handoff.started,
                    let slot = handoff.slots[handoff.finishedFeeding % Self.slotCount]
                else { return nil }
                return (handoff.finishedFeeding, slot)
            }
            guard let (number, slot) = next else { return }
            if slot.skip {
                advance(past: number)
                continue
            }
            guard let sink = slot.sink else { return }
            let target = slot.end?.endFrame ?? history.endFrame
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
        changed.signal()
    }
}
