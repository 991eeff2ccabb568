import Testing

@testable import VoiceActivation

/// The detector's speech rules on synthetic sequences of block levels and speech judgements:
/// the level and speech start a take, speech (and the sound just after it) keeps it going.
@Suite struct VoiceActivationSpeechTests {
    static let rate = 48_000
    static let block = 480

    static func amplitude(_ decibels: Double) -> Float { VoiceActivation.amplitude(decibels) }

    /// Feeds `seconds` of a steady level in 10 ms blocks, each judged `speech`; returns the steps
    /// that changed something.
    static func feed(
        _ detector: inout VoiceActivation, decibels: Double, seconds: Double, speech: Bool
    ) -> [VoiceActivation.Step] {
        var steps: [VoiceActivation.Step] = []
        let level = amplitude(decibels)
        let end = detector.position + Int(seconds * Double(rate))
        while detector.position < end {
            let frames = min(block, end - detector.position)
            let step = detector.consume(peak: level, rms: level, frames: frames, firstFrame: detector.position, speech: speech)
            if step != VoiceActivation.Step() { steps.append(step) }
        }
        return steps
    }

    @Test func aLoudSoundThatIsNotSpeechStartsNoTake() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        let steps = Self.feed(&detector, decibels: -20, seconds: 5, speech: false)
        #expect(steps.isEmpty)
        #expect(detector.phase == .armed)
        #expect(detector.hearsSpeech == false)
    }

    @Test func speechAtTheThresholdStartsATakeWithItsPreRoll() throws {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&detector, decibels: -70, seconds: 1, speech: false)
        let steps = Self.feed(&detector, decibels: -20, seconds: 1, speech: true)
        let started = try #require(steps.first?.started)
        #expect(started.startFrame == started.triggerFrame - Self.rate * 3 / 10)
        #expect(detector.phase == .recording)
    }

    /// A room 3 dB under the threshold (above the stop threshold) keeps no take going: it ends
    /// hang time after the last speech and the sound just after it (`trailingSound`).
    @Test func aTakeEndsAfterTheLastSpeechInARoomJustUnderTheThreshold() throws {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&detector, decibels: -43, seconds: 2, speech: false)
        let speechEnd = detector.position + Self.rate
        var steps = Self.feed(&detector, decibels: -20, seconds: 1, speech: true)
        steps += Self.feed(&detector, decibels: -43, seconds: 5, speech: false)
        let ended = try #require(steps.compactMap(\.ended).first)
        let trailing = Int(VoiceActivation.trailingSound * Double(Self.rate))
        #expect(ended.endFrame == speechEnd + trailing + 2 * Self.rate)
        #expect(ended.keep)
        #expect(steps.compactMap(\.started).count == 1)
    }

    /// In a room whose every block is loud, the unvoiced end of a word still counts when it
    /// stands out of the room block after block: up to `tailLength` after the last speech.
    @Test func theEndOfAWordThatStandsOutOfALoudRoomIsKept() throws {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&detector, decibels: -43, seconds: 3, speech: false)
        var steps = Self.feed(&detector, decibels: -20, seconds: 1, speech: true)
        steps += Self.feed(&detector, decibels: -35, seconds: 0.3, speech: false)
        let wordEnd = detector.position
        steps += Self.feed(&detector, decibels: -43, seconds: 5, speech: false)
        let ended = try #require(steps.compactMap(\.ended).first)
        #expect(ended.soundEndFrame == wordEnd)
        #expect(ended.endFrame == wordEnd + 2 * Self.rate)

        // A sound that goes on longer is cut at `tailLength` after the speech.
        var long = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&long, decibels: -43, seconds: 3, speech: false)
        var longSteps = Self.feed(&long, decibels: -20, seconds: 1, speech: true)
        let speechEnd = long.position
        longSteps += Self.feed(&long, decibels: -35, seconds: 2, speech: false)
        longSteps += Self.feed(&long, decibels: -43, seconds: 5, speech: false)
        let cut = try #require(longSteps.compactMap(\.ended).first)
        #expect(cut.soundEndFrame == speechEnd + Int(VoiceActivation.tailLength * Double(Self.rate)))
    }

    @Test func inAQuietRoomATakeEndsHangTimeAfterTheLastSpeechExactly() throws {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&detector, decibels: -70, seconds: 1, speech: false)
        let speechEnd = detector.position + Self.rate
        var steps = Self.feed(&detector, decibels: -20, seconds: 1, speech: true)
        steps += Self.feed(&detector, decibels: -70, seconds: 3, speech: false)
        let ended = try #require(steps.compactMap(\.ended).first)
        #expect(ended.endFrame == speechEnd + 2 * Self.rate)
    }

    /// The minimum counts speech from the take's first frame (its pre-roll included): a word of
    /// 0.3 s is kept with the default 0.5 s minimum and 0.3 s pre-roll; 0.15 s is not.
    @Test(arguments: [(0.3, true), (0.15, false)])
    func aShortWordIsKeptAndAShorterSoundIsNot(seconds: Double, kept: Bool) throws {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&detector, decibels: -70, seconds: 1, speech: false)
        var steps = Self.feed(&detector, decibels: -20, seconds: seconds, speech: true)
        steps += Self.feed(&detector, decibels: -70, seconds: 3, speech: false)
        let ended = try #require(steps.compactMap(\.ended).first)
        #expect(ended.keep == kept)
    }

    @Test func speechTooQuietForTheThresholdStartsNoTake() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        let steps = Self.feed(&detector, decibels: -50, seconds: 3, speech: true)
        #expect(steps.isEmpty)
    }
}
