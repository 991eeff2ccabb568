import Audio
import Dispatch
import Synchronization

/// The talking-app replay: plays a kept voice take back as soon as it is saved (pitched
/// through SoundTouch when asked), while a `VoiceActivatedRecorder` ignores its input, so the
/// replay heard by the microphone never starts a take; listening resumes `echoTail` after the
/// replay's end. `record --vox --replay` and the app's `V` panel (Replay, Pitch) both use it.
///
/// `play` blocks its caller until the replay and its tail are over. Call it on the recorder's
/// controller thread (inside `takeDidFinish`): the detector goes on on the analysis thread (a
/// take that began just before the replay hears it as silence and ends), and no take can start
/// while the input is ignored, so nothing needs that thread meanwhile. `cancel()`, or `interruption` answering true
/// (a stop signal), ends a replay in progress at once, and every later one before it starts.
public final class TakeReplay: Sendable {
    /// How long the input stays ignored after the player has played its last frame: what the
    /// device and the audio server still hold (PulseAudio's default latency is tens of ms; a
    /// room's echo dies within ~0.3 s) and the capture's own latency.
    public static let echoTail: Double = 0.5
    /// How long a replay may outlast its take before it is given up: a device that stops answering.
    static let overrunAllowance: Double = 10
    /// How often a wait asks `interruption`; `cancel()` wakes it at once.
    static let interruptionPollMilliseconds = 50

    /// The ALSA playback device, as for `aplay -D`.
    public let device: String
    private let interruption: @Sendable () -> Bool
    private let recorder = Mutex<VoiceActivatedRecorder?>(nil)
    private let cancelled = Atomic<Bool>(false)
    /// Signalled by the player's end and by `cancel()`; every wait re-checks why it woke.
    private let wake = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - device: where takes are played (`default`, or the app's playback device).
    ///   - interruption: asked while waiting; true ends the replay (the CLI's stop signal).
    public init(device: String = "default", interruption: @escaping @Sendable () -> Bool = { false }) {
        self.device = device
        self.interruption = interruption
    }

    /// The recorder whose input is ignored during each replay. Set before its first take ends
    /// (the recorder's events need the replay before the recorder exists).
    public func attach(_ recorder: VoiceActivatedRecorder) {
        self.recorder.withLock { $0 = recorder }
    }

    /// Ends a replay in progress (and its tail) at once; later calls of `play` do nothing.
    /// Call it before `VoiceActivatedRecorder.stop()`, which joins the thread that plays.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Whether `cancel()` was called or `interruption` answers true: no replay runs.
    public var isInterrupted: Bool { cancelled.load(ordering: .acquiring) || interruption() }

    /// Plays the file at `path` to its end, `pitchSemitones` up or down (the speed kept), with
    /// the recorder's input ignored from before the first frame until `echoTail` after the
    /// last; returns at once when cancelled or interrupted.
    ///
    /// - Returns: whether a replay ran (false when cancelled first or no recorder is attached).
    /// - Throws: `PlayerError` when the file or the device cannot be opened or fails while
    ///   playing; the input is heard again before it is thrown (listening goes on).
    @discardableResult
    public func play(_ path: String, pitchSemitones: Double = 0) throws(PlayerError) -> Bool {
        guard !isInterrupted, let recorder = recorder.withLock({ $0 }) else { return false }
        recorder.setIgnoringInput(true)
        defer {
            wait(until: .now() + Self.echoTail) { false }
            recorder.setIgnoringInput(false)
        }
        let finished = FinishFlag()
        let player = try Player(
            url: path, device: device, adjustable: pitchSemitones != 0,
            eventQueue: DispatchQueue(label: "voicememo.vox.replay"),
            events: PlayerEvents(didFinishPlaying: { [wake] _ in
                finished.value.store(true, ordering: .releasing)
                wake.signal()
            }))
        if pitchSemitones != 0 { try player.setAdjustments(PlaybackAdjustments(pitchSemitones: pitchSemitones)) }
        try player.play()
        wait(until: .now() + player.duration + Self.overrunAllowance) { finished.value.load(ordering: .acquiring) }
        player.stop()
        if let error = player.error { throw error }
        return true
    }

    /// Waits until `deadline`, `done()` or an interruption, whichever comes first.
    private func wait(until deadline: DispatchTime, done: () -> Bool) {
        while !done(), !isInterrupted, DispatchTime.now() < deadline {
            let slice = DispatchTime.now() + .milliseconds(Self.interruptionPollMilliseconds)
            _ = wake.wait(timeout: min(slice, deadline))
        }
    }
}

/// Whether one replay's player has finished: set on the player's event queue.
private final class FinishFlag: Sendable {
    let value = Atomic<Bool>(false)
}
