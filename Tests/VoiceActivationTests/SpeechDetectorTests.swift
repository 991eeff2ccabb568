import Glibc
import SoundFiles
import Testing
import TestSupport

@testable import VoiceActivation

/// WebRTC's voice activity detector through its wrapper, and the speech detector built on it,
/// on synthetic signals: a vowel-like pulse train through two formants, a steady tone, noise.
@Suite struct SpeechDetectorTests {
    /// A vowel-like sound: a glottal pulse train whose pitch glides from `fromHz` to `toHz`,
    /// through resonances at 700 and 1200 Hz, peaking near −12 dBFS.
    static func vowel(seconds: Double, rate: Int, fromHz: Double = 100, toHz: Double = 140) -> [Int16] {
        let count = Int(seconds * Double(rate))
        var output = [Double](repeating: 0, count: count)
        var phase = 0.0
        func resonator(_ frequency: Double) -> (Double, Double) {
            let radius = exp(-Double.pi * 100 / Double(rate))
            return (2 * radius * cos(2 * Double.pi * frequency / Double(rate)), -radius * radius)
        }
        let (a1, a2) = resonator(700)
        let (b1, b2) = resonator(1200)
        var first = (0.0, 0.0)
        var second = (0.0, 0.0)
        for index in 0..<count {
            let pitch = fromHz + (toHz - fromHz) * Double(index) / Double(max(1, count))
            phase += pitch / Double(rate)
            var pulse = 0.0
            if phase >= 1 {
                phase -= 1
                pulse = 1
            }
            let y = pulse + a1 * first.0 + a2 * first.1
            first = (y, first.0)
            let z = y + b1 * second.0 + b2 * second.1
            second = (z, second.0)
            output[index] = z
        }
        let peak = output.map(abs).max() ?? 1
        return output.map { Int16(($0 / peak * 0.25 * 32767).rounded()) }
    }

    static func tone(seconds: Double, rate: Int, hz: Double) -> [Int16] {
        (0..<Int(seconds * Double(rate))).map { Int16((sin(2 * Double.pi * hz * Double($0) / Double(rate)) * 8000).rounded()) }
    }

    static func noise(seconds: Double, rate: Int, seed: UInt64) -> [Int16] {
        var random = SplitMix64(seed: seed)
        return (0..<Int(seconds * Double(rate))).map { _ in Int16.random(in: -4000...4000, using: &random) }
    }

    /// The frames WebRTC calls voiced, out of all the 10 ms frames of `samples`.
    static func voicedFrames(_ samples: [Int16], rate: Int) throws -> (voiced: Int, frames: Int) {
        let detector = try WebRTCVoiceDetector(sampleRate: rate)
        var voiced = 0
        var frames = 0
        for start in stride(from: 0, to: samples.count - detector.frameLength + 1, by: detector.frameLength) {
            let frame = Array(samples[start..<start + detector.frameLength])
            if try frame.withUnsafeBufferPointer({ try detector.isVoiced($0) }) { voiced += 1 }
            frames += 1
        }
        return (voiced, frames)
    }

    /// The 10 ms blocks the speech detector calls speech.
    static func speechFrames(_ samples: [Int16], rate: Int) throws -> Int {
        let detector = try SpeechDetector(format: StreamFormat(sampleRate: rate, channels: 1, sampleFormat: .int16))
        let block = rate / 100
        var speech = 0
        for start in stride(from: 0, to: samples.count - block + 1, by: block) {
            let isSpeech = samples[start..<start + block].withUnsafeBytes { bytes in
                bytes.baseAddress.map { detector.consume($0, frames: block) } ?? false
            }
            if isSpeech { speech += 1 }
        }
        return speech
    }

    @Test(arguments: [8000, 16000, 32000, 48000])
    func webRTCLinksAndTellsAVowelFromSilence(rate: Int) throws {
        let vowel = try Self.voicedFrames(Self.vowel(seconds: 1, rate: rate), rate: rate)
        let silence = try Self.voicedFrames([Int16](repeating: 0, count: rate), rate: rate)
        #expect(vowel.frames == 100)
        #expect(vowel.voiced >= 50, "\(vowel)")
        #expect(silence.voiced == 0, "\(silence)")
    }

    @Test func webRTCRefusesARateItCannotTakeByName() {
        #expect(throws: WebRTCVoiceError.unsupportedSampleRate(44100)) { try WebRTCVoiceDetector(sampleRate: 44100) }
        #expect(WebRTCVoiceError.unsupportedSampleRate(44100).description.contains("44100"))
    }

    @Test func webRTCRefusesAFrameThatIsNot10Milliseconds() throws {
        let detector = try WebRTCVoiceDetector(sampleRate: 16000)
        let short = [Int16](repeating: 0, count: 100)
        #expect(throws: WebRTCVoiceError.wrongFrameLength(got: 100, expected: 160)) {
            try short.withUnsafeBufferPointer { try detector.isVoiced($0) }
        }
    }

    @Test func theSpeechDetectorRefusesARateUnder8Kilohertz() {
        #expect(throws: WebRTCVoiceError.unsupportedSampleRate(4000)) {
            try SpeechDetector(format: StreamFormat(sampleRate: 4000, channels: 1, sampleFormat: .int16))
        }
    }

    /// The pitfall: WebRTC alone takes a steady tone for voice; the speech detector does not.
    @Test func aSteadyToneIsVoiceToWebRTCButNotSpeech() throws {
        let tone = Self.tone(seconds: 2, rate: 48000, hz: 220)
        let webRTC = try Self.voicedFrames(tone, rate: 48000)
        #expect(webRTC.voiced >= 20, "\(webRTC)")
        #expect(try Self.speechFrames(tone, rate: 48000) == 0)
    }

    @Test(arguments: [16000, 44100, 48000])
    func aVowelWithAMovingPitchIsSpeechAndNoiseIsNot(rate: Int) throws {
        #expect(try Self.speechFrames(Self.vowel(seconds: 1, rate: rate), rate: rate) >= 30)
        #expect(try Self.speechFrames(Self.noise(seconds: 2, rate: rate, seed: 7), rate: rate) == 0)
        #expect(try Self.speechFrames(Self.vowel(seconds: 1, rate: rate, fromHz: 120, toHz: 120), rate: rate) == 0)
    }

    /// A room's talker far off: syllables of 0.4 s whose pitch glides up and down in turn, with
    /// 0.1 s between them, scaled by `gain`.
    static func distantTalker(seconds: Double, rate: Int, gain: Double) -> [Int16] {
        var samples: [Int16] = []
        var rising = true
        while samples.count < Int(seconds * Double(rate)) {
            let syllable = vowel(seconds: 0.4, rate: rate, fromHz: rising ? 100 : 150, toHz: rising ? 150 : 100)
            samples += syllable.map { Int16((Double($0) * gain).rounded()) }
            samples += [Int16](repeating: 0, count: rate / 10)
            rising.toggle()
        }
        return Array(samples.prefix(Int(seconds * Double(rate))))
    }

    /// The 10 ms blocks of `samples` after the first `learning` seconds that a detector which
    /// learnt the room from those seconds calls speech.
    static func speechFramesAfterLearning(_ samples: [Int16], rate: Int, learning: Double) throws -> Int {
        let detector = try SpeechDetector(format: StreamFormat(sampleRate: rate, channels: 1, sampleFormat: .int16))
        let block = rate / 100
        var speech = 0
        for start in stride(from: 0, to: samples.count - block + 1, by: block) {
            detector.learnsRoom = Double(start) < learning * Double(rate)
            let isSpeech = samples[start..<start + block].withUnsafeBytes { bytes in
                bytes.baseAddress.map { detector.consume($0, frames: block) } ?? false
            }
            if isSpeech, !detector.learnsRoom { speech += 1 }
        }
        return speech
    }

    /// A voice far off is speech to the detector until it has heard the room; then it goes on
    /// without a frame of speech, and a voice 20 dB over it is heard.
    @Test func aRoomsOwnTalkerIsNotSpeechOnceHeardButAVoiceOverItIs() throws {
        let rate = 16000
        let room = Self.distantTalker(seconds: 5, rate: rate, gain: 0.1)
        #expect(try Self.speechFrames(room, rate: rate) > 50, "a talker is speech to a detector that has not heard the room")
        #expect(try Self.speechFramesAfterLearning(room, rate: rate, learning: 3) == 0)

        let voice = Self.vowel(seconds: 1, rate: rate, fromHz: 110, toHz: 150)
        let over = room.enumerated().map { index, sample in
            let at = index - 3 * rate
            let added = at >= 0 && at < voice.count ? Int(voice[at]) : 0
            return Int16(max(-32768, min(32767, Int(sample) + added)))
        }
        #expect(try Self.speechFramesAfterLearning(over, rate: rate, learning: 3) >= 30)
    }

    /// A frame under the owner's quietest level is not speech, nor evidence for the next.
    @Test func aFrameUnderTheQuietestLevelIsNotSpeech() throws {
        let rate = 16000
        let detector = try SpeechDetector(format: StreamFormat(sampleRate: rate, channels: 1, sampleFormat: .int16))
        detector.quietestSpeechDB = -3
        let voice = Self.vowel(seconds: 1, rate: rate)
        let heard = voice.withUnsafeBytes { bytes in
            stride(from: 0, to: voice.count, by: rate / 100).filter { start in
                detector.consume(bytes.baseAddress! + start * 2, frames: rate / 100)
            }
        }
        #expect(heard.isEmpty)
        #expect(detector.lastFrame.loudEnough == false)
    }

    @Test func evidenceNeedsVoicedPeriodicFramesWhosePitchMoves() {
        var steady = SpeechEvidence()
        var moving = SpeechEvidence()
        var steadySpeech = 0
        var movingSpeech = 0
        for index in 0..<40 {
            if steady.add(.init(voiced: true, periodicity: 0.9, period: 60)) { steadySpeech += 1 }
            if moving.add(.init(voiced: true, periodicity: 0.9, period: 60 + Float(index) * 0.3)) { movingSpeech += 1 }
        }
        #expect(steadySpeech == 0)
        #expect(movingSpeech > 20)
        var unvoiced = SpeechEvidence()
        let heard = (0..<40).filter { index in
            unvoiced.add(.init(voiced: false, periodicity: 0.9, period: 60 + Float(index) * 0.3))
        }
        #expect(heard.isEmpty)
    }
}

/// WebRTC's noise suppression through its wrapper: it links, turns steady noise down, and
/// refuses what it cannot take by name.
@Suite struct WebRTCNoiseSuppressorTests {
    @Test func steadyNoiseIsTurnedDown() throws {
        let suppressor = try WebRTCNoiseSuppressor(sampleRate: 16000, level: .high)
        var samples = SpeechDetectorTests.noise(seconds: 3, rate: 16000, seed: 3)
        let before = samples.suffix(16000).reduce(0.0) { $0 + Double($1) * Double($1) }
        for start in stride(from: 0, to: samples.count, by: 160) {
            try samples[start..<start + 160].withUnsafeMutableBufferPointer { try suppressor.process($0) }
        }
        let after = samples.suffix(16000).reduce(0.0) { $0 + Double($1) * Double($1) }
        #expect(10 * log10(after / before) < -6, "the last second, in dB: \(10 * log10(after / before))")
    }

    @Test func aRateOrAFrameItCannotTakeIsRefusedByName() throws {
        #expect(throws: WebRTCVoiceError.unsupportedSampleRate(22050)) { try WebRTCNoiseSuppressor(sampleRate: 22050) }
        let suppressor = try WebRTCNoiseSuppressor(sampleRate: 48000)
        var short = [Int16](repeating: 0, count: 10)
        #expect(throws: WebRTCVoiceError.wrongFrameLength(got: 10, expected: 480)) {
            try short.withUnsafeMutableBufferPointer { try suppressor.process($0) }
        }
    }
}
