@testable import VoiceActivation
import SoundFiles
import Testing

@testable import Audio

/// `VoiceActivation.ignore`: what the talking-app replay plays into the room never starts a
/// take, never becomes a later take's pre-roll, and listening resumes at once afterwards.
@Suite struct VoiceActivationIgnoreTests {
    static let rate = VoiceActivationTests.rate
    static let block = VoiceActivationTests.block

    static func ignore(_ detector: inout VoiceActivation, seconds: Double) -> [VoiceActivation.Step] {
        var steps: [VoiceActivation.Step] = []
        let end = detector.position + Int(seconds * Double(rate))
        while detector.position < end {
            let step = detector.ignore(frames: min(block, end - detector.position), firstFrame: detector.position)
            if step != VoiceActivation.Step() { steps.append(step) }
        }
        return steps
    }

    @Test func aLoudReplayStartsNothingAndTheNextWordsStartATakeWithoutItsSound() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = VoiceActivationTests.feed(&detector, level: VoiceActivationTests.amplitude(-70), seconds: 1)
        // 3 s of replay at -10 dB, far over the -40 dB threshold, while ignored.
        #expect(Self.ignore(&detector, seconds: 3).isEmpty)
        #expect(detector.phase == .armed)
        #expect(detector.smoothedLevelDB == -160)
        let resumed = detector.position
        _ = VoiceActivationTests.feed(&detector, level: VoiceActivationTests.amplitude(-70), seconds: 0.1)
        let started = VoiceActivationTests.feed(&detector, level: VoiceActivationTests.amplitude(-10), seconds: 1).compactMap(\.started)
        #expect(started.count == 1)
        // The pre-roll (0.3 s) would reach back into the replay: it stops where listening resumed.
        #expect(started.first?.startFrame == resumed)
    }

    @Test func aTakeInProgressHearsIgnoredInputAsSilence() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = VoiceActivationTests.feed(&detector, level: VoiceActivationTests.amplitude(-10), seconds: 1)
        #expect(detector.phase == .recording)
        let soundEnd = detector.position
        let ended = Self.ignore(&detector, seconds: 3).compactMap(\.ended)
        #expect(ended.count == 1)
        #expect(ended.first?.endFrame == soundEnd + 2 * Self.rate)
        #expect(detector.phase == .armed)
    }
}
