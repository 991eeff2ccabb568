import Platform
import Dispatch
import Metering
import SoundFiles
import Synchronization

/// Receives every captured chunk on the capture thread (a recorder's writer side).
///
/// Called with the engine's tap lock held: implementations copy and return; they
/// never block, allocate, log or touch files.
package protocol CaptureTap: AnyObject, Sendable {
    /// `frames` interleaved frames in the engine's format; the first of them is
    /// device frame `firstFrame` (counted from when capture began).
    func capture(_ buffer: UnsafeRawPointer, frames: Int, firstFrame: Int)
    /// Capture ended: the source ran out (`error == nil`) or failed.
    func captureEnded(error: CaptureError?)
    /// Where the next read may go instead of the engine's own buffer: memory of the tap's
    /// (a recording's ring), room for at least one frame, or `nil`. Asked on the capture
    /// thread before a read; the chunk then arrives in `capture` at that address, and the
    /// tap takes it without a copy. Other taps see the same chunk at the same address.
    func captureRegion() -> UnsafeMutableRawBufferPointer?
    /// Whether the tap will take no more frames (a recording that reached its duration or
    /// stopped): an engine started with `endsWhenTapsAreDone` stops reading once every tap
    /// says so. Asked on the capture thread after each chunk.
    var takesNoMoreFrames: Bool { get }
}

extension CaptureTap {
    package func captureRegion() -> UnsafeMutableRawBufferPointer? { nil }
    package var takesNoMoreFrames: Bool { false }
}

/// Runs a capture source on its own thread and meters every frame it delivers.
///
/// The engine is the input being open: the level meter runs from `start()` to
/// `stop()`, whether or not anything records (the app monitors like this). A
/// recorder attaches as a tap and sees the same frames. Meter reads follow
/// AVAudioRecorder: `updateMeters()`, then `averagePower(forChannel:)` and
/// `peakPower(forChannel:)`.
///
/// It also knows when audio last arrived (`secondsWithoutAudio`): an input that is open but
/// delivers nothing — a stopped sound server, a PipeWire stream nothing links — is a stall
/// (`isStalled`, after `InputDiagnosis.noAudioAfter` seconds), which the surfaces report.
/// A stall never traps `stop()`: sources return from `read` at least every 100 ms.
public final class CaptureEngine: Sendable {
    /// The format frames arrive in.
    public let format: StreamFormat
    /// The source's description, e.g. "alsa:default".
    public let sourceName: String

    private struct Meters {
        var live: LevelMeter
        var isEnabled = true
        var average: [Float]
        var peak: [Float]
        var clips: [Int]
    }

    nonisolated(unsafe) private let source: CaptureSource
    private let meters: Mutex<Meters>
    /// The attached taps, in attachment order. Changed only by attach/detach (which may
    /// allocate, off the capture thread); the capture thread only iterates.
    private let taps = Mutex<[any CaptureTap]>([])
    private let running = Atomic<Bool>(false)
    private let framesCaptured = Atomic<Int>(0)
    private let overrunCount = Atomic<Int>(0)
    private let lostFrameCount = Atomic<Int>(0)
    private let notNumberCount = Atomic<Int>(0)
    private let clampedCount = Atomic<Int>(0)
    private let failure = Mutex<CaptureError?>(nil)
    private let ended = Atomic<Bool>(false)
    private let thread = Mutex<JoinableThread?>(nil)
    /// Whether the capture loop finished in time for `stop()`, or was left to finish alone.
    private enum Ending { case running, finished, abandoned }
    private let ending = Mutex(Ending.running)
    private let loopFinished = DispatchSemaphore(value: 0)
    private let clock: MonotonicClock
    /// When the last frame arrived (or capture started, before the first), on `clock`.
    private let lastAudioAt = Atomic<Int>(0)

    /// Takes ownership of an open source; nothing runs until `start()`.
    ///
    /// - Parameter clock: when frames arrive, for `secondsWithoutAudio` (tests step it).
    public init(source: CaptureSource, clock: MonotonicClock = .system) {
        self.source = source
        self.clock = clock
        self.format = source.format
        self.sourceName = source.name
        let floor = Array(repeating: Decibels.floor, count: source.format.channels)
        let channels = source.format.channels
        self.meters = Mutex(Meters(
            live: LevelMeter(channels: channels), average: floor, peak: floor,
            clips: Array(repeating: 0, count: channels)))
    }

    deinit {
        stop()
    }

    /// Starts the capture thread. Idempotent.
    ///
    /// - Parameter frameLimit: end capture after exactly this many frames (the last
    ///   read is shortened), as if the source had run out; `nil` runs until `stop()`.
    public func start(frameLimit: Int? = nil) {
        start(frameLimit: frameLimit, endsWhenTapsAreDone: false)
    }

    /// Starts the capture thread. Idempotent.
    ///
    /// - Parameters:
    ///   - frameLimit: end capture after exactly this many frames (the last read is
    ///     shortened), as if the source had run out; `nil` runs until `stop()`.
    ///   - endsWhenTapsAreDone: end capture, as if the source had run out, once there are taps
    ///     and every one of them takes no more frames (`CaptureTap.takesNoMoreFrames`): for
    ///     an engine that exists only for its recording, whose file is still being finished
    ///     (an encoder's backlog) while nothing needs the input any more.
    package func start(frameLimit: Int? = nil, endsWhenTapsAreDone: Bool) {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        lastAudioAt.store(clock.nanoseconds(), ordering: .releasing)
        let started = JoinableThread { [self] in
            captureLoop(frameLimit: frameLimit, endsWhenTapsAreDone: endsWhenTapsAreDone)
        }
        thread.withLock { $0 = started }
    }

    /// How long `stop()` waits for the capture thread before leaving it to finish alone.
    public static let stopWaitMilliseconds = 400

    /// Stops capture, waits for the thread and closes the source. Idempotent.
    ///
    /// The thread notices within one read (a source waits at most 100 ms for the device).
    /// A thread stuck inside a call that does not return — alsa-lib's pulse plugin starting a
    /// stream waits for the server without a timeout — is given `stopWaitMilliseconds`, then
    /// left to finish alone: it is detached, the taps are detached from it (it delivers
    /// nothing more), and it closes the source itself when it gets out. Every frame delivered
    /// before the stop has reached the taps either way.
    public func stop() {
        running.store(false, ordering: .releasing)
        let started = thread.withLock { value -> JoinableThread? in
            defer { value = nil }
            return value
        }
        guard let started else {
            // Never started, or stopped before; a source left to its thread is not ours to close.
            if ending.withLock({ $0 }) != .abandoned { source.close() }
            return
        }
        if loopFinished.wait(timeout: .now() + .milliseconds(Self.stopWaitMilliseconds)) == .timedOut {
            let abandoned = ending.withLock { state -> Bool in
                guard state == .running else { return false }
                state = .abandoned
                return true
            }
            if abandoned {
                started.detach()
                taps.withLock { $0.removeAll() }
                ended.store(true, ordering: .releasing)
                return
            }
        }
        started.join()
        source.close()
    }

    /// Whether the capture loop has ended (stopped, source exhausted or failed).
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Why capture ended, when it failed.
    public var error: CaptureError? { failure.withLock { $0 } }

    /// Frames captured since `start()`, recorded or not.
    public var capturedFrames: Int { framesCaptured.load(ordering: .acquiring) }

    /// Seconds of audio captured since `start()` (AVAudioRecorder's `deviceCurrentTime`).
    public var deviceCurrentTime: Double { Double(capturedFrames) / Double(format.sampleRate) }

    /// Overruns the source recovered from.
    public var overruns: Int { overrunCount.load(ordering: .relaxed) }

    /// Frames lost to those overruns.
    public var lostFrames: Int { lostFrameCount.load(ordering: .relaxed) }

    /// Whether `stop()` has been asked for (or capture never started): the capture thread
    /// is on its way out.
    var isStopping: Bool { !running.load(ordering: .acquiring) }

    /// Seconds since the last frame arrived (since `start()` before the first one), while
    /// capture runs; 0 before `start()`, after `stop()` and once capture has ended (an input
    /// that ran out or failed is not stalled: it is over).
    public var secondsWithoutAudio: Double {
        guard running.load(ordering: .acquiring), !hasEnded else { return 0 }
        let elapsed = clock.nanoseconds() - lastAudioAt.load(ordering: .acquiring)
        return max(0, Double(elapsed) / 1e9)
    }

    /// Whether the input has delivered nothing for `InputDiagnosis.noAudioAfter` seconds
    /// while open: `InputDiagnosis.noAudio` is the report. Clears with the next frame.
    public var isStalled: Bool { secondsWithoutAudio >= InputDiagnosis.noAudioAfter }

    /// The float samples the input delivered that were not usable and were repaired before the
    /// meter and any tap saw them (`UsableSamples`: NaN and ±∞ as silence, beyond full scale
    /// clamped), the source's own repairs (a file's reader) included.
    public var replacedSamples: ReplacedSamples {
        var total = ReplacedSamples(
            notNumbers: notNumberCount.load(ordering: .relaxed), clamped: clampedCount.load(ordering: .relaxed))
        total += source.replacedSamples
        return total
    }

    /// The inputs capture went on from after the source's own went away (`InputSwitch`).
    public var inputSwitches: [InputSwitch] { source.inputSwitches }

    // MARK: Metering

    /// Whether the capture thread feeds the meter (on by default).
    public var isMeteringEnabled: Bool {
        get { meters.withLock { $0.isEnabled } }
        set { meters.withLock { $0.isEnabled = newValue } }
    }

    /// Takes a snapshot of the levels since the previous call.
    public func updateMeters() {
        meters.withLock { meters in
            meters.live.updateMeters()
            for channel in 0..<format.channels {
                meters.average[channel] = meters.live.averagePower(forChannel: channel)
                meters.peak[channel] = meters.live.peakPower(forChannel: channel)
                meters.clips[channel] += meters.live.clips(forChannel: channel)
            }
        }
    }

    /// Per channel, the clips (`ClipRule`: runs of three full-scale samples) since the input
    /// opened, as far as the last `updateMeters()`: the same count whatever the snapshot rate.
    public var clipCounts: [Int] {
        meters.withLock { $0.clips }
    }

    /// All channels' clips since the input opened (the sum of `clipCounts`): what a status
    /// line, `meter`'s updates and `record`'s summary show.
    public var totalClipCount: Int {
        meters.withLock { $0.clips.reduce(0, +) }
    }

    /// The RMS level of `channel` in dBFS at the last `updateMeters()` (−160 for silence or an unknown channel).
    public func averagePower(forChannel channel: Int) -> Float {
        meters.withLock { $0.average.indices.contains(channel) ? $0.average[channel] : Decibels.floor }
    }

    /// The peak level of `channel` in dBFS at the last `updateMeters()` (−160 for silence or an unknown channel).
    public func peakPower(forChannel channel: Int) -> Float {
        meters.withLock { $0.peak.indices.contains(channel) ? $0.peak[channel] : Decibels.floor }
    }

    // MARK: Taps

    /// Adds a tap: from the next chunk on it sees every captured frame. Several taps
    /// can share one input (a recording, voice activation, loudness analysis).
    package func attach(_ newTap: any CaptureTap) {
        taps.withLock { taps in
            if !taps.contains(where: { $0 === newTap }) { taps.append(newTap) }
        }
        if hasEnded { newTap.captureEnded(error: error) }
    }

    package func detach(_ oldTap: any CaptureTap) {
        taps.withLock { taps in taps.removeAll { $0 === oldTap } }
    }

    // MARK: The capture thread

    private func captureLoop(frameLimit: Int?, endsWhenTapsAreDone: Bool) {
        // Room for ~170 ms at 48 kHz: sources read less when they are paced (a device
        // period, a generated source's 20 ms) and up to this much when they run ahead.
        let chunkFrames = max(1024, format.sampleRate / 6)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkFrames * format.bytesPerFrame, alignment: 64)
        defer { buffer.deallocate() }
        var captureError: CaptureError?
        while running.load(ordering: .acquiring) {
            var wanted = chunkFrames
            if let frameLimit {
                wanted = min(wanted, frameLimit - framesCaptured.load(ordering: .relaxed))
                if wanted <= 0 { break }
            }
            // Straight into a recording's ring when it offers room for a fair share of a
            // chunk (saves copying every byte once more); else into the engine's buffer.
            // The tap whose memory is read into stays alive until its chunk is handed over:
            // a recorder can be stopped, detached and released meanwhile, and its ring with it
            // (that was a write into freed memory: the app crashed on `s` now and then).
            var target = buffer
            var regionOwner: (any CaptureTap)?
            if let (owner, region) = offeredRegion() {
                let fitting = region.count / format.bytesPerFrame
                if fitting >= min(wanted, minimumRegionFrames), let start = region.baseAddress {
                    target = start
                    wanted = min(wanted, fitting)
                    regionOwner = owner
                }
            }
            defer { withExtendedLifetime(regionOwner) {} }
            let read: CaptureRead
            do {
                read = try source.read(into: target, frames: wanted)
            } catch {
                captureError = error
                break
            }
            if read.overruns > 0 {
                overrunCount.add(read.overruns, ordering: .relaxed)
                lostFrameCount.add(read.lostFrames, ordering: .relaxed)
            }
            if read.frames > 0 {
                lastAudioAt.store(clock.nanoseconds(), ordering: .releasing)
                let replaced = UsableSamples.repair(
                    target, samples: read.frames * format.channels, format: format.sampleFormat)
                if !replaced.isEmpty {
                    notNumberCount.add(replaced.notNumbers, ordering: .relaxed)
                    clampedCount.add(replaced.clamped, ordering: .relaxed)
                }
                meter(target, frames: read.frames)
                let first = framesCaptured.load(ordering: .relaxed)
                let tapsAreDone = taps.withLock { taps in
                    for tap in taps { tap.capture(target, frames: read.frames, firstFrame: first) }
                    return endsWhenTapsAreDone && !taps.isEmpty && taps.allSatisfy { $0.takesNoMoreFrames }
                }
                framesCaptured.store(first + read.frames, ordering: .releasing)
                if tapsAreDone { break }
            }
            if read.endOfStream { break }
        }
        failure.withLock { $0 = captureError }
        ended.store(true, ordering: .releasing)
        taps.withLock { taps in
            for tap in taps { tap.captureEnded(error: captureError) }
        }
        let closesSource = ending.withLock { state -> Bool in
            if state == .abandoned { return true }
            state = .finished
            return false
        }
        loopFinished.signal()
        if closesSource { source.close() }
    }

    /// The smallest tap region the capture loop reads into (a quarter of a 48 kHz chunk): near
    /// the end of a ring the free space before the wrap can be a few frames, not worth a read.
    private let minimumRegionFrames = 2000

    /// The first region a tap offers for the next read (see `CaptureTap.captureRegion()`), and
    /// that tap, which the caller keeps alive for as long as it uses the region.
    private func offeredRegion() -> (any CaptureTap, UnsafeMutableRawBufferPointer)? {
        taps.withLock { taps in
            for tap in taps {
                if let region = tap.captureRegion() { return (tap, region) }
            }
            return nil
        }
    }

    private func meter(_ buffer: UnsafeMutableRawPointer, frames: Int) {
        let samples = frames * format.channels
        meters.withLock { meters in
            guard meters.isEnabled else { return }
            format.sampleFormat.deliver(buffer, samples: samples, to: &meters.live)
        }
    }
}
