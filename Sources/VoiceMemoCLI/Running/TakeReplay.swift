import Audio
import Dispatch
import Foundation
import Synchronization

/// `record --vox --replay [--pitch N]`: the talking-app replay. Each kept take is played back
/// on the default ALSA device as soon as it is saved (pitched through SoundTouch with
/// `--pitch`), while the voice-activated recorder ignores its input (so the replay, heard by
/// the microphone, never starts a take); listening resumes `echoTail` after the replay's end.
///
/// Runs on the recorder's controller thread, inside `TakeBook.finish`: no take can start while
/// the input is ignored, so nothing waits for that thread meanwhile. A stop signal ends the
/// replay at once. `VOICEMEMO_EVENT_LOG` gets `replay_start ID` and `replay_end ID`.
final class TakeReplay: Sendable {
    /// How long the input stays ignored after the player has played its last frame: what the
    /// device and the audio server still hold (PulseAudio's default latency is tens of ms; a
    /// room's echo dies within ~0.3 s) and the capture's own latency.
    static let echoTail: Double = 0.5

    let pitch: Double
    let device: String
    private let console: Console
    private let eventLog: EventLog?
    private let recorder = Mutex<VoiceActivatedRecorder?>(nil)

    init(pitch: Double, device: String = "default", console: Console, environment: [String: String]) {
        self.pitch = pitch
        self.device = device
        self.console = console
        eventLog = EventLog(environment: environment)
    }

    /// The recorder whose input is ignored during each replay.
    func attach(_ recorder: VoiceActivatedRecorder) {
        self.recorder.withLock { $0 = recorder }
    }

    /// Plays `path` (memo `id`) to its end or a stop signal, ignoring the input meanwhile.
    /// A file or device that cannot be played is said on standard error; listening goes on.
    func play(_ path: String, memoID id: Int64) {
        guard StopSignals.pending == nil, let recorder = recorder.withLock({ $0 }) else { return }
        recorder.setIgnoringInput(true)
        eventLog?.note("replay_start \(id)")
        defer {
            let resumeAt = Date().addingTimeInterval(Self.echoTail)
            while Date() < resumeAt, StopSignals.pending == nil { usleep(20_000) }
            recorder.setIgnoringInput(false)
            eventLog?.note("replay_end \(id)")
        }
        let finished = DispatchSemaphore(value: 0)
        let player: Player
        do {
            player = try Player(
                url: path, device: device, adjustable: pitch != 0,
                eventQueue: DispatchQueue(label: "voicememo.vox.replay"),
                events: PlayerEvents(didFinishPlaying: { _ in finished.signal() }))
            if pitch != 0 { try player.setAdjustments(PlaybackAdjustments(pitchSemitones: pitch)) }
            try player.play()
        } catch {
            console.printErrorMessage("cannot replay memo \(id): \(error.message)")
            return
        }
        // Bounded: the take's length and a margin for a device that stops answering.
        let deadline = Date().addingTimeInterval(player.duration + 10)
        while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if StopSignals.pending != nil || Date() > deadline { break }
        }
        player.stop()
        if let error = player.error { console.printErrorMessage("replay of memo \(id): \(error.message)") }
    }
}
