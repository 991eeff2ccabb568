import SoundFiles
import Testing

@testable import Audio

/// The detector on synthetic level sequences: time is frames passed in, nothing runs.
@Suite struct VoiceActivationTests {
    static let rate = 48_000
    static let block = 480

    /// Feeds `seconds` of a steady level in 10 ms blocks; returns every step that changed something.
    static func feed(
        _ detector: inout VoiceActivation, level: Float, seconds: Double, rms: Float? = nil, block: Int = block
    ) -> [VoiceActivation.Step] {
        var steps: [VoiceActivation.Step] = []
        let end = detector.position + Int(seconds * Double(rate))
        while detector.position < end {
            let frames = min(block, end - detector.position)
            let step = detector.consume(peak: level, rms: rms ?? level, frames: frames, firstFrame: detector.position)
            if step != VoiceActivation.Step() { steps.append(step) }
        }
        return steps
    }

    static func amplitude(_ decibels: Double) -> Float { VoiceActivation.amplitude(decibels) }

    @Test func aSteadyToneStartsATakeOnlyWhenAboveTheThreshold() {
        let tone = Self.amplitude(-20)
        var below = VoiceActivation(settings: .init(startThresholdDB: -20.5), sampleRate: Self.rate)
        let started = Self.feed(&below, level: tone, seconds: 5).compactMap(\.started)
        #expect(started.count == 1)
        var above = VoiceActivation(settings: .init(startThresholdDB: -19.5), sampleRate: Self.rate)
        #expect(Self.feed(&above, level: tone, seconds: 30).isEmpty)
        #expect(above.phase == .armed)
        #expect(abs(above.smoothedLevelDB + 20) < 0.01)
    }

    @Test func aTakeEndsExactlyHangTimeAfterItsLastSoundAndStartsWithPreRoll() {
        var detector = VoiceActivation(settings: .init(), sampleRate: Self.rate)
        #expect(Self.feed(&detector, level: Self.amplitude(-70), seconds: 1).isEmpty)
        let onset = detector.position
        let start = Self.feed(&detector, level: Self.amplitude(-10), seconds: 1.5).compactMap(\.started)
        // The smoothing takes a block or two to reach −40 dB from a step to −10 dB.
        let trigger = start.first?.triggerFrame ?? -1
        #expect(start.count == 1)
        #expect((onset...onset + 960).contains(trigger))
        #expect(start.first?.startFrame == trigger - 14_400)
        let soundEnd = detector.position
        let ends = Self.feed(&detector, level: Self.amplitude(-70), seconds: 3).compactMap(\.ended)
        #expect(ends.count == 1)
        #expect(ends.first?.endFrame == soundEnd + 2 * Self.rate)
        #expect(ends.first?.soundEndFrame == soundEnd)
        #expect(ends.first?.keep == true)
        #expect(detector.phase == .armed)
    }

    /// The status's take length (the app's header timer) counts from the take's first frame,
    /// pre-roll included, and is 0 while listening.
    @Test func statusCountsTheFramesOfTheTakeInProgress() {
        var detector = VoiceActivation(settings: .init(), sampleRate: Self.rate)
        _ = Self.feed(&detector, level: Self.amplitude(-70), seconds: 1)
        #expect(VoiceActivationStatus(detector).takeFrames == 0)
        let start = Self.feed(&detector, level: Self.amplitude(-10), seconds: 1.5).compactMap(\.started).first
        let startFrame = start?.startFrame ?? -1
        #expect(startFrame >= 0, "a take started")
        #expect(VoiceActivationStatus(detector).takeFrames == detector.position - startFrame)
        #expect(VoiceActivationStatus(detector).takeFrames > Self.rate, "pre-roll and over a second of sound")
        _ = Self.feed(&detector, level: Self.amplitude(-70), seconds: 3)
        #expect(VoiceActivationStatus(detector).takeFrames == 0)
    }

    @Test func silenceBetweenTheThresholdsStillCountsAsSoundHysteresis() {
        var detector = VoiceActivation(settings: .init(startThresholdDB: -30, stopThresholdDB: -45), sampleRate: Self.rate)
        _ = Self.feed(&detector, level: Self.amplitude(-10), seconds: 1)
        #expect(detector.phase == .recording)
        // Below the start threshold, above the stop one: the take goes on.
        #expect(Self.feed(&detector, level: Self.amplitude(-40), seconds: 5).isEmpty)
        #expect(detector.silence == 0)
        #expect(Self.feed(&detector, level: Self.amplitude(-50), seconds: 1.2).isEmpty)
        #expect(abs(detector.silence - 1.2) < 0.011)
        #expect(Self.feed(&detector, level: Self.amplitude(-50), seconds: 1).compactMap(\.ended).count == 1)
    }

    @Test func aClickShorterThanTheMinimumIsDiscarded() {
        var detector = VoiceActivation(settings: .init(), sampleRate: Self.rate)
        _ = Self.feed(&detector, level: Self.amplitude(-70), seconds: 1)
        _ = Self.feed(&detector, level: Self.amplitude(-3), seconds: 0.2)
        let ends = Self.feed(&detector, level: Self.amplitude(-70), seconds: 3).compactMap(\.ended)
        #expect(ends.count == 1)
        #expect(ends.first?.keep == false)
    }

    @Test func preRollNeverReachesBeforeTheFirstFrameNorIntoThePreviousTake() {
        var detector = VoiceActivation(settings: .init(preRoll: 0.3), sampleRate: Self.rate, firstFrame: 1000)
        let first = Self.feed(&detector, level: Self.amplitude(-10), seconds: 1).compactMap(\.started)
        #expect(first.first?.startFrame == 1000)
        let ended = Self.feed(&detector, level: 0, seconds: 2.1).compactMap(\.ended)
        let endFrame = ended.first?.endFrame ?? 0
        // Sound again 0.1 s after the end: pre-roll stops at the previous take's end.
        _ = Self.feed(&detector, level: 0, seconds: 0.1 - Double(detector.position - endFrame) / Double(Self.rate))
        let second = Self.feed(&detector, level: Self.amplitude(-10), seconds: 1).compactMap(\.started)
        #expect(second.first?.startFrame == endFrame)
    }

    @Test func continuousSoundLongerThanTheMaximumIsSplit() {
        var detector = VoiceActivation(settings: .init(maximumTake: 10), sampleRate: Self.rate)
        let steps = Self.feed(&detector, level: Self.amplitude(-10), seconds: 25)
        let starts = steps.compactMap(\.started).map(\.startFrame)
        let ends = steps.compactMap(\.ended)
        #expect(starts == [0, 10 * Self.rate, 20 * Self.rate])
        #expect(ends.map(\.endFrame) == [10 * Self.rate, 20 * Self.rate])
        #expect(ends.allSatisfy { $0.keep })
        let last = detector.finish(atFrame: detector.position)
        #expect(last?.endFrame == 25 * Self.rate)
        #expect(last?.keep == true)
    }

    @Test func calibrationOnNoiseAtMinus50SetsTheThresholdAtMinus38() throws {
        var detector = VoiceActivation(settings: .init(calibrationTime: 2), sampleRate: Self.rate)
        let format = StreamFormat(sampleRate: Self.rate, channels: 1, sampleFormat: .float32)
        var noise = NoiseGenerator(rmsDBFS: -50)
        var samples = [Float](repeating: 0, count: Self.block)
        var calibrated: Double?
        for index in 0..<300 {
            noise.fill(&samples)
            let level = samples.withUnsafeBytes { bytes in
                bytes.baseAddress.map { BlockLevel($0, frames: Self.block, format: format) } ?? BlockLevel(peak: 0, rms: 0)
            }
            let step = detector.consume(peak: level.peak, rms: level.rms, frames: Self.block, firstFrame: index * Self.block)
            if let threshold = step.calibratedThresholdDB { calibrated = threshold }
            #expect(step.started == nil)
        }
        let threshold = try #require(calibrated)
        #expect(abs(threshold + 38) <= 1)
        #expect(detector.phase == .armed)
        #expect(abs(detector.startThresholdDB + 38) <= 1)
    }

    @Test func smoothingFollowsTheBlockDurationSoAnyChunkSizeBehavesTheSame() {
        var small = VoiceActivation(settings: .init(startThresholdDB: -12), sampleRate: Self.rate)
        var large = VoiceActivation(settings: .init(startThresholdDB: -12), sampleRate: Self.rate)
        _ = Self.feed(&small, level: Self.amplitude(-10), seconds: 0.96, block: 96)
        _ = Self.feed(&large, level: Self.amplitude(-10), seconds: 0.96, block: 3840)
        #expect(abs(small.smoothedLevel - large.smoothedLevel) < 1e-5)
        // After 20 ms the classic α = 0.05 has moved 5 % of the way.
        var classic = VoiceActivation(settings: .init(), sampleRate: Self.rate)
        _ = Self.feed(&classic, level: 1, seconds: 0.02, block: 960)
        #expect(abs(classic.smoothedLevel - 0.05) < 1e-6)
    }

    @Test func badSettingsAreRefusedNamingTheSetting() {
        let bad: [VoiceActivationSettings] = [
            .init(startThresholdDB: 3), .init(stopThresholdDB: -10), .init(hangTime: 0), .init(hangTime: -1),
            .init(minimumTake: -1), .init(preRoll: 11), .init(maximumTake: 0.5), .init(calibrationTime: 0),
        ]
        for settings in bad {
            #expect(throws: RecorderError.self) { try settings.validate() }
        }
        #expect(throws: Never.self) { try VoiceActivationSettings(maximumTake: 1, calibrationTime: 2).validate() }
    }
}

/// Deterministic uniform noise at a chosen RMS level.
struct NoiseGenerator {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private let amplitude: Float

    init(rmsDBFS: Double) {
        // Uniform noise in ±a has an RMS of a/√3.
        amplitude = VoiceActivation.amplitude(rmsDBFS) * Float(3.0.squareRoot())
    }

    mutating func next() -> Float {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Float(state >> 40) / Float(1 << 24) * 2 - 1) * amplitude
    }

    mutating func fill(_ samples: inout [Float]) {
        for index in samples.indices { samples[index] = next() }
    }
}
