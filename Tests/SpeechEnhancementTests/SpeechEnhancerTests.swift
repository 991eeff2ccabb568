import TestSupport
import Foundation
import Testing

@testable import SpeechEnhancement

/// SpeexDSP's denoiser through `SpeechEnhancer`, on real signals: white, pink and brown noise
/// alone, and voiced speech-like bursts in noise.
@Suite struct SpeechEnhancerTests {
    /// Seeded noise (`SplitMix64`), so every run hears the same noise.
    struct Noise {
        var generator: SplitMix64
        var pink = [Double](repeating: 0, count: 7)
        var brown = 0.0

        init(seed: UInt64) { generator = SplitMix64(seed: seed) }

        /// Uniform in −1…1.
        mutating func white() -> Double {
            Double(generator.next() >> 11) / Double(1 << 52) - 1
        }

        /// Paul Kellet's pink filter over white noise (−3 dB per octave), about ±1.
        mutating func pinkSample() -> Double {
            let w = white()
            pink[0] = 0.99886 * pink[0] + w * 0.0555179
            pink[1] = 0.99332 * pink[1] + w * 0.0750759
            pink[2] = 0.96900 * pink[2] + w * 0.1538520
            pink[3] = 0.86650 * pink[3] + w * 0.3104856
            pink[4] = 0.55000 * pink[4] + w * 0.5329522
            pink[5] = -0.7616 * pink[5] - w * 0.0168980
            let value = pink[0] + pink[1] + pink[2] + pink[3] + pink[4] + pink[5] + pink[6] + w * 0.5362
            pink[6] = w * 0.115926
            return value * 0.11
        }

        /// Leaky-integrated white noise (−6 dB per octave): a fan's rumble.
        mutating func brownSample() -> Double {
            brown = 0.995 * brown + 0.05 * white()
            return brown
        }
    }

    enum Colour: String, CaseIterable { case white, pink, brown }

    /// `seconds` of `colour` noise scaled to `rmsDB` dBFS, mono.
    static func noise(_ colour: Colour, seconds: Double, rate: Int, rmsDB: Double, seed: UInt64 = 7) -> [Float] {
        var generator = Noise(seed: seed)
        let raw = (0..<Int(seconds * Double(rate))).map { _ -> Double in
            switch colour {
            case .white: generator.white()
            case .pink: generator.pinkSample()
            case .brown: generator.brownSample()
            }
        }
        let gain = pow(10, rmsDB / 20) / rms(raw)
        return raw.map { Float($0 * gain) }
    }

    /// Voiced, speech-like bursts: a glottal-like harmonic series (f0 gliding 110–150 Hz,
    /// harmonics falling 6 dB per octave, a formant-like lift near 700 Hz) of 250 ms, shaped
    /// by a raised-cosine envelope, then 250 ms of silence; each burst's RMS is `rmsDB`.
    static func bursts(seconds: Double, rate: Int, rmsDB: Double) -> (samples: [Float], voiced: [Range<Int>]) {
        let total = Int(seconds * Double(rate))
        let on = rate / 4, period = rate / 2
        var samples = [Double](repeating: 0, count: total)
        var voiced: [Range<Int>] = []
        var phase = 0.0
        var start = 0
        while start + on <= total {
            for i in 0..<on {
                let t = Double(i) / Double(on)
                let f0 = 110 + 40 * sin(.pi * t)
                phase += 2 * .pi * f0 / Double(rate)
                var value = 0.0
                for harmonic in 1...20 {
                    let frequency = f0 * Double(harmonic)
                    guard frequency < Double(rate) / 2.5 else { break }
                    let formant = 1 + 2 * exp(-pow((frequency - 700) / 250, 2))
                    value += formant * sin(Double(harmonic) * phase) / Double(harmonic)
                }
                samples[start + i] = value * 0.5 * (1 - cos(2 * .pi * t))
            }
            voiced.append((start + on / 5)..<(start + on * 4 / 5))
            start += period
        }
        let voicedRMS = rms(voiced.flatMap { samples[$0] })
        let gain = pow(10, rmsDB / 20) / voicedRMS
        return (samples.map { Float($0 * gain) }, voiced)
    }

    static func rms<S: Collection>(_ samples: S) -> Double where S.Element: BinaryFloatingPoint {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    static func dB(_ value: Double) -> Double { 20 * log10(max(value, 1e-12)) }

    /// Runs `input` through a new enhancer in pieces of `piece` frames, then finishes.
    static func enhance(
        _ input: [Float], rate: Int, channels: Int = 1, settings: EnhancementSettings = .standard, piece: Int = 4_096
    ) throws -> [Float] {
        let enhancer = try SpeechEnhancer(sampleRate: rate, channels: channels, settings: settings)
        var output: [Float] = []
        var index = 0
        while index < input.count {
            let end = min(input.count, index + piece * channels)
            input.withUnsafeBufferPointer { enhancer.process(UnsafeBufferPointer(rebasing: $0[index..<end]), into: &output) }
            index = end
        }
        enhancer.finish(into: &output)
        return output
    }

    @Test(arguments: Colour.allCases, [8_000, 16_000, 44_100, 48_000, 96_000])
    func noiseAloneIsSuppressedByFifteenDecibels(colour: Colour, rate: Int) throws {
        let input = Self.noise(colour, seconds: 6, rate: rate, rmsDB: -35)
        let output = try Self.enhance(input, rate: rate)
        #expect(output.count == input.count)
        // After 2 s, the denoiser has its estimate of the noise.
        let after = (2 * rate)..<input.count
        let drop = Self.dB(Self.rms(input[after])) - Self.dB(Self.rms(output[after]))
        #expect(drop >= 15, "\(colour) noise at \(rate) Hz dropped by \(drop) dB")
        print("SpeechEnhancerTests: \(colour) noise at \(rate) Hz: \(drop) dB down")
    }

    @Test(arguments: [11_025, 16_000, 22_050, 32_000, 44_100, 48_000])
    func voicedBurstsPassWhileThePausesLoseTheNoise(rate: Int) throws {
        let clean = Self.bursts(seconds: 8, rate: rate, rmsDB: -20)
        let noise = Self.noise(.pink, seconds: 8, rate: rate, rmsDB: -40, seed: 11)
        let noisy = zip(clean.samples, noise).map { $0 + $1 }
        let output = try Self.enhance(noisy, rate: rate)
        #expect(output.count == noisy.count)
        let late = clean.voiced.filter { $0.lowerBound >= 2 * rate }
        let voicedIn = Self.dB(Self.rms(late.flatMap { clean.samples[$0] }))
        let voicedOut = Self.dB(Self.rms(late.flatMap { output[$0] }))
        #expect(abs(voicedOut - voicedIn) <= 1, "the bursts went from \(voicedIn) to \(voicedOut) dBFS")
        // The pauses: the middle 150 ms of each 250 ms gap, where only the noise was.
        let pauses = late.map { ($0.upperBound + rate / 10)..<($0.upperBound + rate / 4) }.filter { $0.upperBound <= noisy.count }
        let floorIn = Self.dB(Self.rms(pauses.flatMap { noisy[$0] }))
        let floorOut = Self.dB(Self.rms(pauses.flatMap { output[$0] }))
        #expect(floorIn - floorOut >= 15, "the floor in the pauses went from \(floorIn) to \(floorOut) dBFS")
        print("SpeechEnhancerTests: bursts at \(rate) Hz: voiced \(voicedIn) → \(voicedOut) dBFS, pauses \(floorIn) → \(floorOut) dBFS")
    }

    @Test func outputIsInStepWithTheInputWhateverThePieces() throws {
        let rate = 16_000
        let input = Self.bursts(seconds: 1.3, rate: rate, rmsDB: -20).samples.prefix(20_011).map { $0 }
        // Without the low cut, whose phase shifts the bursts by a sample or two.
        let plain = EnhancementSettings(lowCutHz: nil)
        let whole = try Self.enhance(input, rate: rate, settings: plain, piece: input.count)
        #expect(whole.count == input.count)
        for piece in [1, 7, 319, 320, 321, 5_000] {
            #expect(try Self.enhance(input, rate: rate, settings: plain, piece: piece) == whole, "pieces of \(piece) frames")
            #expect(
                try Self.enhance(input, rate: rate, piece: piece) == Self.enhance(input, rate: rate, piece: input.count),
                "pieces of \(piece) frames, with the low cut")
        }
        // In step: the enhanced bursts line up with the clean ones (no frame of delay).
        var best = (lag: 0, correlation: -Double.infinity)
        for lag in -400...400 {
            var sum = 0.0
            for i in 1_000..<19_000 { sum += Double(input[i]) * Double(whole[i + lag]) }
            if sum > best.correlation { best = (lag, sum) }
        }
        #expect(best.lag == 0)
    }

    /// What it does to music (docs/USER-GUIDE.md): a held tone is what the denoiser takes for
    /// noise, and after a few seconds it is down by the whole suppression.
    @Test func aHeldToneIsTakenForNoise() throws {
        let rate = 48_000
        let tone = (0..<(10 * rate)).map { Float(0.1 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        let output = try Self.enhance(tone, rate: rate)
        let late = (5 * rate)..<tone.count
        let drop = Self.dB(Self.rms(tone[late])) - Self.dB(Self.rms(output[late]))
        print("SpeechEnhancerTests: a held 440 Hz tone: \(drop) dB down after 5 s")
        #expect(drop >= 15, "\(drop) dB")
    }

    @Test func eachChannelHasItsOwnDenoiser() throws {
        let rate = 48_000
        let noise = Self.noise(.white, seconds: 4, rate: rate, rmsDB: -30)
        var stereo = [Float](repeating: 0, count: noise.count * 2)
        for (i, sample) in noise.enumerated() { stereo[2 * i] = sample }
        let output = try Self.enhance(stereo, rate: rate, channels: 2, piece: 1_000)
        #expect(output.count == stereo.count)
        let left = stride(from: 2 * 2 * rate, to: output.count, by: 2).map { output[$0] }
        let right = stride(from: 1, to: output.count, by: 2).map { output[$0] }
        #expect(Self.dB(Self.rms(left)) <= -45)
        #expect(right.allSatisfy { $0 == 0 }, "the silent channel stays silent")
    }

    @Test func emptyInputGivesEmptyOutput() throws {
        #expect(try Self.enhance([], rate: 32_000).isEmpty)
    }

    @Test func overloadedAndNonFiniteSamplesAreClippedNotCrashed() throws {
        var input = Self.bursts(seconds: 0.5, rate: 16_000, rmsDB: 0).samples.map { $0 * 4 }
        input[100] = .nan
        input[200] = .infinity
        let output = try Self.enhance(input, rate: 16_000)
        #expect(output.count == input.count)
        #expect(output.allSatisfy { $0.isFinite && abs($0) <= 1 })
    }

    @Test func refusalsNameTheCause() {
        #expect(throws: SpeechEnhancementError.unsupportedSampleRate(7_999)) { try SpeechEnhancer(sampleRate: 7_999, channels: 1) }
        #expect(throws: SpeechEnhancementError.unsupportedSampleRate(768_000)) { try SpeechEnhancer(sampleRate: 768_000, channels: 1) }
        #expect(throws: SpeechEnhancementError.unsupportedSampleRate(0)) { try SpeechEnhancer(sampleRate: 0, channels: 1) }
        #expect(throws: SpeechEnhancementError.unsupportedChannelCount(0)) { try SpeechEnhancer(sampleRate: 48_000, channels: 0) }
        #expect(throws: SpeechEnhancementError.invalidNoiseSuppression(5)) {
            try SpeechEnhancer(sampleRate: 48_000, channels: 1, settings: EnhancementSettings(noiseSuppressionDB: 5))
        }
        #expect(throws: SpeechEnhancementError.invalidFrameLength(15)) {
            try SpeechEnhancer(sampleRate: 48_000, channels: 1, settings: EnhancementSettings(frameMilliseconds: 15))
        }
        #expect(
            SpeechEnhancementError.unsupportedSampleRate(768_000).description
                == "enhance works at 8 to 384 kHz; this audio is at 768000 Hz")
    }
}
