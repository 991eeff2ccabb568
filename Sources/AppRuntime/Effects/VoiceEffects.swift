import Audio
import Interface
import MemoLibrary
import Synchronization

/// Voice activation's effects (`v` and its settings panel; `Interface/Update/VoiceKeys.swift`):
/// armed and stopped on the effect runner, its takes answering as actions. Its state (UI
/// queue): a count of arming and disarming, so a detector armed on the runner after a later
/// `v` (or after its input closed) is stopped instead of shown (the stale-result guard).
final class VoiceEffects: Sendable {
    private let epoch = Mutex(0)

    func perform(_ effect: Effect, on loop: AppLoop, tracked: Bool) {
        switch effect {
        case .armVoiceActivation(let parameters):
            arm(parameters, on: loop)
        case .setVoiceReplay(let replay):
            loop.session?.setVoiceReplay(replay)
        case .disarmVoiceActivation:
            epoch.withLock { $0 += 1 }
            let armed = loop.session?.detachVoice()
            loop.onRunner(tracked: false) { _ in
                armed?.stop()
                return {}
            }
        default:
            assertionFailure("not a voice-activation effect: \(effect)")
        }
    }

    /// Arms voice activation on the runner (opening its library connection and attaching its
    /// detector may wait); one armed before is stopped there first, its take kept. The
    /// answer is dropped (and the detector stopped) if `v` disarmed, the input changed or the
    /// app quit meanwhile.
    private func arm(_ parameters: VoiceParameters, on loop: AppLoop) {
        guard let session = loop.session else { return }
        let armedEpoch = epoch.withLock { value in
            value += 1
            return value
        }
        let old = session.detachVoice()
        let environment = loop.environment
        let device = loop.playbackDevice
        let eventLog = loop.eventLog
        let queue = loop.queue
        loop.onRunner(tracked: false) { [self] _ in
            old?.stop()
            let armed: AppVoiceActivation
            do {
                let library = try MemoStore.openConnection(environment: environment)
                armed = try session.makeVoice(
                    parameters, library: library, playbackDevice: device, eventLog: eventLog, queue: queue
                ) { event in
                    switch event {
                    case .saved(let memo):
                        loop.dispatch(.voiceTakeSaved(MemoRow(memo)))
                    case .failed(let failure):
                        loop.dispatch(.failed(failure))
                    }
                    loop.render()
                }
            } catch let error as RecorderError {
                return { loop.dispatch(.voiceArmFailed(.voiceActivationNotArmed(detail: error.message))) }
            } catch {
                return { loop.dispatch(.voiceArmFailed(.voiceActivationNotArmed(detail: "\(error)"))) }
            }
            return { [self] in
                guard epoch.withLock({ $0 }) == armedEpoch, loop.session === session, !loop.isFinishing else {
                    loop.onRunner(tracked: false) { _ in
                        armed.stop()
                        return {}
                    }
                    return
                }
                session.attachVoice(armed)
            }
        }
    }
}
