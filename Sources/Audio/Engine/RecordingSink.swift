import Platform
import Dispatch
import Glibc
import Metering
import SoundFiles
import Synchronization

/// The recorder's half of the pipeline: decides on the capture thread which frames
/// belong to the recording, hands them over through a lock-free ring, and writes
/// them to the file on a thread of its own.
///
/// The capture side only copies into the ring and signals; every libsndfile call,
/// and so every disk stall, happens on the writer thread. A sink that measures (a memo's)
/// also measures each block once it has written it (`WrittenFrameMeter`, when nothing waits
/// to be written), so the statistics cover exactly the frames in the file: pauses, and
/// anything a failed write lost, excluded.
///
/// For the formats recorded through a W64 intermediate (Ogg Vorbis, MP3, ALAC in CAF) a third
/// thread, at the lowest priority (nice 19), follows the writer: it reads back what the writer
/// has written to the intermediate and encodes it into the final file
/// (`IntermediateEncoding`), so that at stop only what it has not reached yet is left. At the
/// end the writer thread joins it and encodes that rest itself, at its own priority.
package final class RecordingSink: CaptureTap, Sendable {
    private enum Mode: Equatable {
        /// Prepared: the input runs, nothing is recorded yet.
        case idle
        /// Recording starts at this device frame.
        case armed(startFrame: Int)
        case recording
        case paused
        /// No more frames will be accepted.
        case done
    }

    private struct Control {
        var mode: Mode = .idle
        /// Total recorded frames at which recording stops by itself.
        var limit: Int?
    }

    private let format: StreamFormat
    private let ring: RingBuffer
    /// Fill level at which the capture side wakes the writer early.
    private let wakeThreshold: Int
    private let writer: SoundFileWriter
    /// Checked before each block the writer writes; nil writes until the disk itself is full.
    private let reserve: FreeSpaceReserve?
    /// What the encoder leaves free: half the writer's reserve. The encoder follows the writer
    /// onto the same disk and may finish into the reserve (the last moments, the trailer: a
    /// real-time recording's encoder is a fraction of a second behind), but never so far
    /// that the index has no room; an encoder far behind stops there, and its intermediate
    /// waits for room.
    private let encoderReserve: FreeSpaceReserve?
    /// The most frames written between two checks of `reserve` (0.1 s).
    private let framesPerCheck: Int
    private let control = Mutex(Control())
    private let recorded = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let written = Atomic<Int64>(0)
    /// When the first recorded frame was captured: CLOCK_REALTIME in ns, 0 until then.
    private let firstRecordedAt = Atomic<Int64>(0)
    private let inputDone = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    private let failure = Mutex<RecorderError?>(nil)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let spaceFreed = DispatchSemaphore(value: 0)
    private let thread = Mutex<JoinableThread?>(nil)
    /// The meters of what was written; `nil` when the sink does not measure. Used by the
    /// writer thread, then read once it has closed the file and measured everything.
    private let measurement: Mutex<WrittenFrameMeter?>
    private let eventQueue: DispatchQueue
    private let events: RecorderEvents
    /// For `.intermediate` formats: the final file, encoded while recording. `nil` for the
    /// other formats, and when the final file could not be created at the start (then
    /// `SoundFileWriter.close()` encodes everything at the end, as it always did).
    private let encoding: IntermediateEncoding?
    private let encoderThread = Mutex<JoinableThread?>(nil)
    private let encoderWakeUp = DispatchSemaphore(value: 0)
    /// Set by the writer thread when it takes over the encode (the intermediate is closed).
    private let encoderStops = Atomic<Bool>(false)
    private let encodingFailure = Mutex<SoundFileError?>(nil)

    /// - Parameter measuresStatistics: whether the writer thread measures what it writes
    ///   (`statistics`); costs about 0.2 % of a core in real time (see docs/PERFORMANCE.md).
    package init(
        writer: SoundFileWriter, format: StreamFormat, reserve: FreeSpaceReserve?, measuresStatistics: Bool,
        eventQueue: DispatchQueue, events: RecorderEvents
    ) {
        self.writer = writer
        measurement = Mutex(measuresStatistics ? WrittenFrameMeter(format: format) : nil)
        self.reserve = reserve
        encoderReserve = reserve.map { FreeSpaceReserve(path: $0.path, bytes: $0.bytes / 2) }
        framesPerCheck = max(1, format.sampleRate / 10)
        self.format = format
        self.eventQueue = eventQueue
        self.events = events
        // Four seconds of audio: far more than a disk stall the writer must ride out.
        ring = RingBuffer(minimumCapacity: format.sampleRate * format.bytesPerFrame * 4)
        wakeThreshold = ring.capacity / 8
        encoding = try? writer.startEncoding()
        let started = JoinableThread { [self] in writeLoop() }
        thread.withLock { $0 = started }
        if encoding != nil {
            let encoder = JoinableThread { [self] in encodeLoop() }
            encoderThread.withLock { $0 = encoder }
        }
    }

    // MARK: Control (any thread)

    package func start(atFrame startFrame: Int?, limit: Int?) {
        control.withLock { control in
            guard control.mode != .done else { return }
            if let limit { control.limit = recorded.load(ordering: .acquiring) + limit }
            control.mode = startFrame.map { .armed(startFrame: $0) } ?? .recording
        }
    }

    package func pause() {
        control.withLock { control in
            switch control.mode {
            case .recording, .armed: control.mode = .paused
            case .idle, .paused, .done: break
            }
        }
    }

    /// Accepts no more frames, writes what is queued, closes the file and delivers
    /// the events. Waits for the writer; idempotent.
    package func finish(error: RecorderError?) {
        if let error { fail(error) }
        endInput()
        let writerThread = thread.withLock { value -> JoinableThread? in
            defer { value = nil }
            return value
        }
        writerThread?.join()
    }

    package var isRecording: Bool { control.withLock { $0.mode == .recording } }
    package var recordedFrames: Int { recorded.load(ordering: .acquiring) }
    package var droppedFrames: Int { dropped.load(ordering: .relaxed) }
    package var framesWritten: Int64 { written.load(ordering: .acquiring) }
    /// When the first recorded frame was captured (Unix seconds), once one was.
    package var firstFrameCapturedAt: Double? {
        let nanoseconds = firstRecordedAt.load(ordering: .acquiring)
        return nanoseconds == 0 ? nil : Double(nanoseconds) / 1e9
    }
    package var hasFinished: Bool { closed.load(ordering: .acquiring) }
    package var error: RecorderError? { failure.withLock { $0 } }

    /// For a recording encoded from an intermediate: frames encoded into the final file and
    /// frames written to the intermediate. `nil` for the other formats.
    package var encodingProgress: (encoded: Int64, written: Int64)? {
        guard let encoding else { return nil }
        return (encoding.framesEncoded, written.load(ordering: .acquiring))
    }

    /// Peaks, loudness and clips of every frame written, once the file is closed; `nil`
    /// before, and when the sink does not measure.
    package var statistics: ProgrammeStatistics? {
        guard hasFinished else { return nil }
        return measurement.withLock { $0?.meter.statistics }
    }

    // MARK: CaptureTap (the capture thread)

    package func capture(_ buffer: UnsafeRawPointer, frames: Int, firstFrame: Int) {
        var offset = 0
        var count = 0
        var reachedLimit = false
        control.withLock { control in
            switch control.mode {
            case .armed(let startFrame):
                guard firstFrame + frames > startFrame else { return }
                offset = max(0, startFrame - firstFrame)
                control.mode = .recording
            case .recording:
                offset = 0
            case .idle, .paused, .done:
                return
            }
            count = frames - offset
            if let limit = control.limit {
                let remaining = limit - recorded.load(ordering: .relaxed)
                if count >= remaining {
                    count = max(0, remaining)
                    reachedLimit = true
                    control.mode = .done
                }
            }
        }
        if count > 0 {
            if recorded.load(ordering: .relaxed) == 0 { noteFirstFrame(framesBeforeNow: frames - offset) }
            push(buffer + offset * format.bytesPerFrame, frames: count)
            recorded.add(count, ordering: .releasing)
        }
        if reachedLimit { endInput() }
    }

    /// Stores when the first recorded frame was captured: the chunk that holds it has just
    /// arrived, and that frame is `framesBeforeNow` frames before the chunk's end. One
    /// `clock_gettime` (vDSO: no system call, no allocation), once per recording.
    private func noteFirstFrame(framesBeforeNow: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
            - Int64(framesBeforeNow) * 1_000_000_000 / Int64(format.sampleRate)
        firstRecordedAt.store(max(1, nanoseconds), ordering: .releasing)
    }

    /// While recording, the ring's free space: the engine reads the next chunk straight into
    /// it, and `push` then hands it over without copying (`RingBuffer.write`).
    package func captureRegion() -> UnsafeMutableRawBufferPointer? {
        guard control.withLock({ $0.mode == .recording }) else { return nil }
        let region = ring.writableRegion()
        return region.count >= format.bytesPerFrame ? region : nil
    }

    /// Copies frames into the ring (unless they are already there). When the ring is full the capture thread waits
    /// for the writer rather than dropping audio: an unpaced source (a test file, a
    /// benchmark) is slowed to the disk's pace, and a real device that waits too
    /// long overruns, which ALSA reports and the engine counts, gap length and all.
    /// Frames are dropped (and counted) only when the writer has stopped.
    private func push(_ start: UnsafeRawPointer, frames: Int) {
        let bytesPerFrame = format.bytesPerFrame
        var pushed = 0
        while pushed < frames {
            let fitting = min(frames - pushed, ring.availableToWrite / bytesPerFrame)
            if fitting > 0 {
                ring.write(start + pushed * bytesPerFrame, count: fitting * bytesPerFrame)
                pushed += fitting
                // The writer also wakes every 100 ms by itself (what keeps the file at
                // most that far behind); waking it per chunk would cost a futex call
                // and a context switch each time for nothing.
                if ring.availableToRead >= wakeThreshold { wakeUp.signal() }
                continue
            }
            wakeUp.signal()
            if closed.load(ordering: .acquiring) || failure.withLock({ $0 != nil }) {
                dropped.add(frames - pushed, ordering: .relaxed)
                return
            }
            _ = spaceFreed.wait(timeout: .now() + .milliseconds(50))
        }
    }

    /// Once the recording has stopped taking frames (its duration reached, its input ended,
    /// its file failed): what is left is the writer's and the encoder's.
    package var takesNoMoreFrames: Bool {
        control.withLock { $0.mode == .done }
    }

    package func captureEnded(error: CaptureError?) {
        if let error {
            fail(RecorderError(error.kind == .disconnected ? .disconnected : .input, error.message, cause: error.cause))
        }
        endInput()
    }

    // MARK: The writer thread

    private func endInput() {
        control.withLock { $0.mode = .done }
        inputDone.store(true, ordering: .releasing)
        wakeUp.signal()
    }

    private func fail(_ error: RecorderError) {
        failure.withLock { current in
            if current == nil { current = error }
        }
    }

    private func writeLoop() {
        let bytesPerFrame = format.bytesPerFrame
        let straddling = UnsafeMutableRawPointer.allocate(byteCount: bytesPerFrame, alignment: 16)
        defer { straddling.deallocate() }
        while true {
            let lastRound = inputDone.load(ordering: .acquiring)
            if !drain(bytesPerFrame: bytesPerFrame, straddling: straddling) { break }
            if lastRound { break }
            if measureWritten(untilAudioWaits: true) { continue }
            _ = wakeUp.wait(timeout: .now() + .milliseconds(100))
        }
        do {
            try writer.close(encodingIntermediate: encoding == nil)
        } catch {
            fail(RecorderError(.file, error.description, cause: .soundFile(error)))
        }
        // The recording is over: what is left (the encoder's backlog, the statistics') gives
        // way to the screen and to other recordings.
        BackgroundPriority.heavy.lowerCallingThread()
        if let encoding { finishEncoding(encoding) }
        _ = measureWritten(untilAudioWaits: false)
        closed.store(true, ordering: .releasing)
        control.withLock { $0.mode = .done }
        deliverEvents()
    }

    /// Writes every whole frame in the ring. Returns false after a write error.
    private func drain(bytesPerFrame: Int, straddling: UnsafeMutableRawPointer) -> Bool {
        do {
            try ring.readWholeFrames(bytesPerFrame: bytesPerFrame, straddling: straddling) {
                (frames: UnsafeRawPointer, count: Int) throws(SoundFileError) in
                // In blocks of at most 0.1 s, so that an unpaced source with seconds queued
                // cannot write past the reserve between two checks.
                var done = 0
                while done < count {
                    let block = min(count - done, framesPerCheck)
                    try reserve?.check(beforeWriting: block * bytesPerFrame)
                    let start = frames + done * bytesPerFrame
                    try writer.write(start, frames: block, sampleFormat: format.sampleFormat)
                    measurement.withLock { $0?.append(start, count: block) }
                    done += block
                    written.store(writer.framesWritten, ordering: .releasing)
                }
                spaceFreed.signal()
                if encoding != nil { encoderWakeUp.signal() }
            }
            return true
        } catch {
            written.store(writer.framesWritten, ordering: .releasing)
            fail(RecorderError(.file, error.description, cause: .soundFile(error)))
            endInput()
            return false
        }
    }

    /// Measures written frames in slices of 0.1 s, until none are left or, with
    /// `untilAudioWaits`, audio waits in the ring to be written first. Returns whether it
    /// stopped for that audio.
    private func measureWritten(untilAudioWaits: Bool) -> Bool {
        while measurement.withLock({ $0?.measurePending(upTo: framesPerCheck) ?? false }) {
            if untilAudioWaits, ring.availableToRead >= format.bytesPerFrame { return true }
        }
        return false
    }

    // MARK: The encoder thread

    /// Encodes what the writer has written, a slice at a time, until the writer takes over.
    /// Runs at nice 19: the writer (and the capture thread) always come first, so encoding can
    /// fall behind an unpaced source but never slows the recording.
    private func encodeLoop() {
        guard let encoding else { return }
        BackgroundPriority.idle.lowerCallingThread()
        while !encoderStops.load(ordering: .acquiring) {
            do {
                if try encodeSlice(of: encoding, upTo: written.load(ordering: .acquiring)) > 0 { continue }
            } catch {
                encodingFailure.withLock { $0 = error }
                return
            }
            _ = encoderWakeUp.wait(timeout: .now() + .milliseconds(250))
        }
    }

    /// On the writer thread, once the intermediate is closed: stops the encoder thread after its
    /// current slice, encodes the rest at this thread's priority (`BackgroundPriority.heavy` by then) and finishes the final file
    /// (then the intermediate is removed). After a failure the final file is abandoned and the
    /// intermediate kept, for recovery.
    private func finishEncoding(_ encoding: IntermediateEncoding) {
        encoderStops.store(true, ordering: .releasing)
        encoderWakeUp.signal()
        let encoder = encoderThread.withLock { value -> JoinableThread? in
            defer { value = nil }
            return value
        }
        encoder?.join()
        do throws(SoundFileError) {
            if let failed = encodingFailure.withLock({ $0 }) { throw failed }
            let total = written.load(ordering: .acquiring)
            while try encodeSlice(of: encoding, upTo: total) > 0 {}
            // Closing writes the encoder's last frames and its header: room for them too.
            try encoderReserve?.check(beforeWriting: Self.encodedSliceBound(encoding))
            try encoding.finish()
        } catch {
            encoding.abandon()
            fail(RecorderError(.file, error.description, cause: .soundFile(error)))
        }
    }

    /// One slice of the encode, once the disk's reserve allows it: the encoder follows the writer
    /// onto the same disk, and a final file that ran into a full disk would be cut short (an
    /// encoder may not even report it; `SndFileHandle.write` catches that). Stopped at the
    /// reserve, the slice is left in the intermediate, which is kept for recovery.
    private func encodeSlice(of encoding: IntermediateEncoding, upTo available: Int64) throws(SoundFileError) -> Int {
        guard available > encoding.framesEncoded else { return 0 }
        do {
            try encoderReserve?.check(beforeWriting: Self.encodedSliceBound(encoding))
        } catch {
            throw encoding.keptInIntermediate(error, detail: "encoding stopped after \(encoding.framesEncoded) frames")
        }
        return try encoding.encodeSlice(upTo: available)
    }

    /// More bytes than one slice of any encoding can take in its final file (the slice's own
    /// samples as 32-bit, which no lossy or lossless encoder grows past).
    private static func encodedSliceBound(_ encoding: IntermediateEncoding) -> Int {
        IntermediateEncoding.sliceFrames * encoding.channels * 4
    }

    private func deliverEvents() {
        let error = self.error
        let events = self.events
        eventQueue.async {
            if let error { events.encodeErrorDidOccur?(error) }
            events.didFinishRecording?(error == nil)
        }
    }
}

extension RecordingSink {
    /// Creates the file at `url` and the sink that writes `format` into it, leaving the disk's
    /// reserve for the memo index free: the one writer set-up, for a `Recorder`'s memo and a
    /// voice-activated take alike.
    ///
    /// - Throws: `RecorderError` of kind `.file`, its cause the `SoundFileError`.
    package static func creatingFile(
        at url: String, settings: RecordingSettings, metadata: SoundFileMetadata, format: StreamFormat,
        measuresStatistics: Bool, eventQueue: DispatchQueue, events: RecorderEvents
    ) throws(RecorderError) -> RecordingSink {
        let writer: SoundFileWriter
        do {
            writer = try SoundFileWriter(path: url, settings: settings, metadata: metadata)
        } catch {
            throw RecorderError(.file, error.description, cause: .soundFile(error))
        }
        return RecordingSink(
            writer: writer, format: format, reserve: FreeSpaceReserve(path: url, bytes: FreeSpaceReserve.defaultBytes),
            measuresStatistics: measuresStatistics, eventQueue: eventQueue, events: events)
    }
}
