import Audio
import SoundFiles
import Synchronization

/// Runs a `LevelAlert` on every captured frame, on the capture thread (10 ms blocks, as voice
/// activation does), and keeps the alerts for the owner's loop to take.
///
/// The capture side only measures and stores into room reserved up front: no allocation.
/// More than `capacity` alerts between two `takeAlerts()` calls are counted, not kept.
public final class LevelAlertTap: CaptureTap, Sendable {
    private struct State {
        var alert: LevelAlert
        var pending: [LevelAlert.Alert]
        var pendingCount = 0
        var lost = 0
        var position = 0
    }

    public static let capacity = 64
    public let format: StreamFormat
    private let blockFrames: Int
    private let engine: CaptureEngine
    private let state: Mutex<State>
    private let detached = Atomic<Bool>(false)

    /// Attaches to `engine`; frames captured from now on are judged.
    public init(engine: CaptureEngine, settings: LevelAlert.Settings) {
        self.engine = engine
        format = engine.format
        blockFrames = max(1, format.sampleRate / 100)
        let placeholder = LevelAlert.Alert(startFrame: 0, frame: 0, levelDB: -160)
        state = Mutex(State(
            alert: LevelAlert(settings: settings, sampleRate: format.sampleRate),
            pending: Array(repeating: placeholder, count: Self.capacity)))
        engine.attach(self)
    }

    deinit { detach() }

    /// Stops judging frames. Idempotent.
    public func detach() {
        guard !detached.exchange(true, ordering: .acquiringAndReleasing) else { return }
        engine.detach(self)
    }

    /// The alerts since the last call, oldest first, and how many did not fit.
    public func takeAlerts() -> (alerts: [LevelAlert.Alert], lost: Int) {
        state.withLock { state in
            let alerts = Array(state.pending[0..<state.pendingCount])
            let lost = state.lost
            state.pendingCount = 0
            state.lost = 0
            return (alerts, lost)
        }
    }

    /// Whether an alert may fire now (after one, not until the level has fallen back).
    public var isArmed: Bool { state.withLock { $0.alert.isArmed } }

    /// One past the last frame judged.
    public var judgedFrames: Int { state.withLock { $0.position } }

    package func capture(_ buffer: UnsafeRawPointer, frames: Int, firstFrame: Int) {
        state.withLock { state in
            var offset = 0
            while offset < frames {
                let count = min(blockFrames, frames - offset)
                let level = BlockLevel(buffer + offset * format.bytesPerFrame, frames: count, format: format)
                if let alert = state.alert.consume(rms: level.rms, frames: count, firstFrame: firstFrame + offset) {
                    if state.pendingCount < Self.capacity {
                        state.pending[state.pendingCount] = alert
                        state.pendingCount += 1
                    } else {
                        state.lost += 1
                    }
                }
                offset += count
            }
            state.position = firstFrame + frames
        }
    }

    package func captureEnded(error: CaptureError?) {}
}
