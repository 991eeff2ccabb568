@testable import VoiceActivation
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
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
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
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
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
        var detector = VoiceActivation(settings: .init(startThresholdDB: -30, stopThresholdDB: -45, hangTime: 2), sampleRate: Self.rate)
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
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&detector, level: Self.amplitude(-70), seconds: 1)
        _ = Self.feed(&detector, level: Self.amplitude(-3), seconds: 0.2)
        let ends = Self.feed(&detector, level: Self.amplitude(-70), seconds: 3).compactMap(\.ended)
        #expect(ends.count == 1)
        #expect(ends.first?.keep == false)
    }

    @Test func preRollNeverReachesBeforeTheFirstFrameNorIntoThePreviousTake() {
        var detector = VoiceActivation(settings: .init(hangTime: 2, preRoll: 0.3), sampleRate: Self.rate, firstFrame: 1000)
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
        var detector = VoiceActivation(settings: .init(hangTime: 2, maximumTake: 10), sampleRate: Self.rate)
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
        var classic = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
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

/// The detector in noisy rooms, on synthetic block sequences: what ends a take is the room's
/// 200 ms RMS, not its peaks nor single blocks; the noise floor follows the room.
@Suite struct VoiceActivationRoomTests {
    static let rate = VoiceActivationTests.rate
    static let block = VoiceActivationTests.block

    static func amplitude(_ decibels: Double) -> Float { VoiceActivation.amplitude(decibels) }

    /// Feeds `seconds` of blocks whose RMS and peak come from `levels(blockIndex)` (dBFS).
    static func feed(
        _ detector: inout VoiceActivation, seconds: Double, levels: (Int) -> (rms: Double, peak: Double)
    ) -> [VoiceActivation.Step] {
        var steps: [VoiceActivation.Step] = []
        let end = detector.position + Int(seconds * Double(rate))
        var index = 0
        while detector.position < end {
            let frames = min(block, end - detector.position)
            let (rms, peak) = levels(index)
            let step = detector.consume(
                peak: amplitude(peak), rms: amplitude(rms), frames: frames, firstFrame: detector.position)
            if step != VoiceActivation.Step() { steps.append(step) }
            index += 1
        }
        return steps
    }

    /// Gaussian noise at −55 dBFS RMS: every 10 ms block peaks near −40, above the −46 stop
    /// threshold (the old peak detector never ended a take in it). The take ends hang time
    /// after the speech.
    @Test func aTakeEndsInNoiseWhosePeaksAreAboveTheStopThreshold() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        let room = { (_: Int) in (rms: -55.0, peak: -40.0) }
        #expect(Self.feed(&detector, seconds: 3, levels: room).isEmpty, "the room alone starts nothing")
        let started = Self.feed(&detector, seconds: 2, levels: { _ in (rms: -20, peak: -6) }).compactMap(\.started)
        #expect(started.count == 1)
        let speechEnd = detector.position
        let ended = Self.feed(&detector, seconds: 3, levels: room).compactMap(\.ended)
        #expect(ended.count == 1)
        #expect(ended.first?.endFrame == speechEnd + 2 * Self.rate)
        #expect(ended.first?.keep == true)
    }

    /// A room whose 10 ms blocks wander (brown noise): one block in four at −42, the rest at
    /// −58 (200 ms RMS ≈ −47.6). Single blocks above the stop threshold do not hold the take.
    @Test func singleLoudBlocksOfTheRoomDoNotKeepATakeAlive() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        let room = { (index: Int) in index % 4 == 0 ? (rms: -42.0, peak: -36.0) : (rms: -58.0, peak: -50.0) }
        _ = Self.feed(&detector, seconds: 1, levels: room)
        _ = Self.feed(&detector, seconds: 1.5, levels: { _ in (rms: -18, peak: -6) })
        #expect(detector.phase == .recording)
        let speechEnd = detector.position
        let ended = Self.feed(&detector, seconds: 4, levels: room).compactMap(\.ended)
        #expect(ended.count == 1)
        // The take's sound ends at most one envelope window (200 ms) after the speech.
        let soundEnd = ended.first?.soundEndFrame ?? -1
        #expect(soundEnd >= speechEnd && soundEnd <= speechEnd + Self.rate / 5)
        #expect(ended.first?.endFrame == soundEnd + 2 * Self.rate)
    }

    /// A room loud enough that its 200 ms RMS is above the stop threshold keeps the take going:
    /// the status says the room is close to the threshold.
    @Test func aRoomWithinTheMarginIsReportedAndKeepsTheTake() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&detector, seconds: 1, levels: { _ in (rms: -60, peak: -50) })
        #expect(detector.isNoiseCloseToThreshold == false)
        _ = Self.feed(&detector, seconds: 1, levels: { _ in (rms: -10, peak: -3) })
        #expect(Self.feed(&detector, seconds: 12, levels: { _ in (rms: -44, peak: -30) }).compactMap(\.ended).isEmpty)
        #expect(abs((detector.noiseFloorDB ?? 0) + 44) < 0.01)
        #expect(detector.isNoiseCloseToThreshold)
        let status = VoiceActivationStatus(detector)
        #expect(status.isNoiseCloseToThreshold)
        #expect(status.noiseFloorDB.map { abs($0 + 44) < 0.01 } == true)
    }

    /// The floor is the quietest 250 ms of the last ~10 s: it finds the room in the pauses
    /// of speech, rises within ~11 s when the room gets louder, falls at once when it gets quieter.
    @Test func theNoiseFloorFollowsTheRoomAndIgnoresSpeech() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        #expect(detector.noiseFloorDB == nil)
        _ = Self.feed(&detector, seconds: 0.24, levels: { _ in (rms: -62, peak: -50) })
        #expect(detector.noiseFloorDB == nil, "less than 250 ms heard")
        _ = Self.feed(&detector, seconds: 0.02, levels: { _ in (rms: -62, peak: -50) })
        #expect(abs((detector.noiseFloorDB ?? 0) + 62) < 0.01)
        // 20 s of speech: 1.2 s words at −20 dB with 300 ms pauses at −62 dB.
        _ = Self.feed(&detector, seconds: 20, levels: { index in index % 150 < 120 ? (rms: -20, peak: -6) : (rms: -62, peak: -50) })
        #expect(abs((detector.noiseFloorDB ?? 0) + 62) < 0.01, "the pauses are the room")
        #expect(detector.isNoiseCloseToThreshold == false)
        // The room gets louder: followed after the floor's memory (10–11 s), not before.
        _ = Self.feed(&detector, seconds: 9.5, levels: { _ in (rms: -45, peak: -33) })
        #expect((detector.noiseFloorDB ?? 0) < -61)
        _ = Self.feed(&detector, seconds: 2, levels: { _ in (rms: -45, peak: -33) })
        #expect(abs((detector.noiseFloorDB ?? 0) + 45) < 0.01)
        #expect(detector.isNoiseCloseToThreshold)
        // Quieter again: at once (one 250 ms window).
        _ = Self.feed(&detector, seconds: 0.26, levels: { _ in (rms: -70, peak: -58) })
        #expect(abs((detector.noiseFloorDB ?? 0) + 70) < 0.01)
    }

    /// The same frames at the same powers, handed over in 2 ms blocks or in runs of up to
    /// six of them, give the same envelope and floor (slots are filled by frames, not blocks).
    @Test func theRoomLevelDoesNotDependOnHowTheAudioIsCut() {
        func power(_ index: Int) -> Double {
            let amplitude = Double(VoiceActivation.amplitude(index % 7 == 0 ? -30 : -55))
            return amplitude * amplitude
        }
        var small = RoomLevel(sampleRate: Self.rate)
        var large = RoomLevel(sampleRate: Self.rate)
        for index in 0..<4000 { small.add(power: power(index), frames: 96) }
        var index = 0
        while index < 4000 {
            var run = 1
            while index % 7 != 0, index + run < 4000, (index + run) % 7 != 0, run < 6 { run += 1 }
            large.add(power: power(index), frames: 96 * run)
            index += run
        }
        #expect(abs(small.envelope - large.envelope) < 1e-6)
        #expect(small.envelope > 0)
        let floor = small.noiseFloorDB ?? 0
        #expect(abs(floor - (large.noiseFloorDB ?? 1)) < 1e-9)
    }

    /// A 0.2 s click train (every block at −3 dBFS peak, −12 RMS) starts a take that is not kept.
    @Test func aClickTrainStillLeavesNothingBehind() {
        var detector = VoiceActivation(settings: .init(hangTime: 2), sampleRate: Self.rate)
        _ = Self.feed(&detector, seconds: 1, levels: { _ in (rms: -55, peak: -40) })
        _ = Self.feed(&detector, seconds: 0.2, levels: { _ in (rms: -12, peak: -3) })
        let ended = Self.feed(&detector, seconds: 3, levels: { _ in (rms: -55, peak: -40) }).compactMap(\.ended)
        #expect(ended.count == 1)
        #expect(ended.first?.keep == false)
    }
}
