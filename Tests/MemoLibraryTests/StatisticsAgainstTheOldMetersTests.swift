import Foundation
import SoundFiles
import Testing
@testable import MemoLibrary
@testable import Metering

/// A memo's figures (sample peak, true peak, loudness, LRA, clips) from real files through
/// `FileAnalysis`, against the meters as they were before they were made cheaper:
/// the true peak of every oversampled point of every phase, nothing skipped
/// (`OldTruePeakMeter`, the old interpolator's arithmetic in the same order), and loudness
/// filtered one channel and one sample at a time (the `LoudnessMeter` path a one-sample buffer
/// takes, which the change left as it was).
///
/// The new meters compute the same values by construction: the true peak must agree to the
/// bit, loudness and range to 10⁻⁹ (the one-sample path adds each sample's energy to the
/// sub-block's at once, the block paths sum a run first: the same filter, another rounding of
/// the sum); the tolerance (0.01 dB / LU) is checked as well, so a difference says which.
@Suite struct StatisticsAgainstTheOldMetersTests {
    /// A signal of `channels` interleaved channels, values nominally within ±1.
    struct Signal: CustomTestStringConvertible {
        let name: String
        let rate: Int
        let channels: Int
        let samples: [Double]
        var testDescription: String { "\(name) \(rate) Hz ×\(channels)" }
    }

    static let signals: [Signal] = [
        SignalSynthesis.tone(rate: 48_000, channels: 2, frequency: 1_000, dBFS: -12, seconds: 1.5),
        SignalSynthesis.noise(rate: 48_000, channels: 2, dBFS: -20, seconds: 1.5, seed: 1),
        SignalSynthesis.offsetNoise(rate: 48_000, channels: 2, seconds: 1, seed: 2),
        SignalSynthesis.speechLike(rate: 48_000, channels: 2, seconds: 4, seed: 3),
        SignalSynthesis.clipped(rate: 48_000, channels: 2, seconds: 1),
        SignalSynthesis.interSamplePeaks(rate: 48_000, channels: 2, seconds: 1.5),
        SignalSynthesis.loudThenQuiet(rate: 48_000, channels: 2, seconds: 4),
        SignalSynthesis.speechLike(rate: 44_100, channels: 1, seconds: 3, seed: 4),
        SignalSynthesis.interSamplePeaks(rate: 96_000, channels: 2, seconds: 1),
        SignalSynthesis.speechLike(rate: 96_000, channels: 3, seconds: 1.5, seed: 5),
        SignalSynthesis.interSamplePeaks(rate: 384_000, channels: 1, seconds: 0.5),
    ]

    static let encodings: [(FileFormat, Encoding, String)] = [
        (.wav, .pcm16, "wav"), (.wav, .pcm24, "wav"), (.wav, .float, "wav"), (.flac, .pcm16, "flac"),
    ]

    @Test(arguments: signals)
    func fileFiguresAreTheOldMetersFigures(signal: Signal) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statistics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (format, encoding, fileExtension) in Self.encodings
        where format.allowedSampleRates?.contains(signal.rate) ?? true {
            let path = folder.appendingPathComponent("\(encoding.rawValue).\(fileExtension)").path
            let settings = RecordingSettings(format: format, encoding: encoding, sampleRate: signal.rate, channels: signal.channels)
            try SignalSynthesis.write(signal, to: path, settings: settings)

            let new = try FileAnalysis.measure(path: path).statistics
            let old = try Self.oldStatistics(of: path)
            let label = "\(signal.testDescription) \(fileExtension) \(encoding.rawValue)"
            #expect(new.frames == old.frames, "\(label)")
            #expect(new.samplePeakDB == old.samplePeakDB, "\(label)")
            #expect(new.clipCount == old.clipCount, "\(label)")
            Self.expectSame(new.truePeakDBTP, old.truePeakDBTP, "true peak", label)
            Self.expectSame(new.loudnessLUFS, old.loudnessLUFS, "loudness", label, strictly: 1e-9)
            Self.expectSame(new.loudnessRange, old.loudnessRange, "LRA", label, strictly: 1e-9)
        }
    }

    /// The figures the old meters give for the file's decoded samples (decoded as
    /// `FileAnalysis` decodes them: the file's own integer width, else Float).
    static func oldStatistics(of path: String) throws -> ProgrammeStatistics {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let info = reader.info
        var truePeak = OldTruePeakMeter(channels: info.channels, sampleRate: info.sampleRate)
        var loudness = LoudnessMeter(channels: info.channels, sampleRate: info.sampleRate)
        var frames = 0
        func feed<Sample: LoudnessSample>(_ zero: Sample, _ format: SampleFormat) throws {
            var buffer = [Sample](repeating: zero, count: 4_096 * info.channels)
            while true {
                let count = try read(reader, into: &buffer, as: format)
                guard count > 0 else { break }
                frames += count
                for var sample in buffer[0..<(count * info.channels)] {
                    truePeak.consume(sample)
                    withUnsafePointer(to: &sample) { loudness.accumulate(UnsafeBufferPointer(start: $0, count: 1)) }
                }
            }
        }
        switch info.encoding {
        case .pcm16: try feed(Int16(0), .int16)
        case .pcm24: try feed(Int32(0), .int32)
        default: try feed(Float(0), .float32)
        }
        return ProgrammeStatistics(
            frames: Int64(frames), samplePeakDB: Double(Decibels.fromAmplitude(Double(truePeak.samplePeak))),
            truePeakDBTP: Double(Decibels.fromAmplitude(Double(truePeak.truePeak))),
            loudnessLUFS: loudness.integratedLoudness.flatMap { $0.isFinite ? $0 : nil },
            loudnessRange: loudness.loudnessRange.flatMap { $0.isFinite ? $0 : nil },
            clipCount: Int64(truePeak.clipCount))
    }

    /// `new` and `old` within the 0.01, and within `strictly` (0: the same to the bit).
    private static func read<Sample>(_ reader: SoundFileReader, into buffer: inout [Sample], as format: SampleFormat) throws -> Int {
        let frames = buffer.count / reader.info.channels
        let result = buffer.withUnsafeMutableBytes { bytes -> Result<Int, SoundFileError> in
            guard let base = bytes.baseAddress else { return .success(0) }
            return Result { () throws(SoundFileError) -> Int in try reader.read(into: base, frames: frames, as: format) }
        }
        return try result.get()
    }

    static func expectSame(
        _ new: Double?, _ old: Double?, _ figure: String, _ label: String, strictly: Double = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect((new == nil) == (old == nil), "\(label): \(figure) \(String(describing: new)) vs \(String(describing: old))",
            sourceLocation: sourceLocation)
        guard let new, let old else { return }
        #expect(abs(new - old) <= 0.01, "\(label): \(figure) \(new) vs \(old), beyond 0.01", sourceLocation: sourceLocation)
        #expect(abs(new - old) <= strictly, "\(label): \(figure) \(new) vs \(old), beyond \(strictly)", sourceLocation: sourceLocation)
    }

    // MARK: - The skipping itself

    /// Speech skips most chunks and a steady tone skips none; both read as before.
    @Test func quietChunksAreSkippedAndLoudOnesAreNot() throws {
        let speech = SignalSynthesis.speechLike(rate: 48_000, channels: 2, seconds: 4, seed: 3)
        let tone = SignalSynthesis.tone(rate: 48_000, channels: 2, frequency: 1_000, dBFS: -12, seconds: 2)
        let loudThenQuiet = SignalSynthesis.loudThenQuiet(rate: 48_000, channels: 2, seconds: 4)
        let skipped = { (signal: Signal) -> (Double, TruePeakMeter) in
            var meter = TruePeakMeter(channels: signal.channels, sampleRate: signal.rate)
            SignalSynthesis.floats(signal).withUnsafeBufferPointer { meter.consume($0) }
            let total = signal.samples.count / TruePeakMeter.chunkLength
            return (Double(meter.skippedChunkCount) / Double(total), meter)
        }
        let (speechShare, _) = skipped(speech)
        let (toneShare, _) = skipped(tone)
        let (quietShare, _) = skipped(loudThenQuiet)
        #expect(speechShare > 0.5, "speech skipped \(speechShare)")
        #expect(toneShare == 0, "a steady tone skipped \(toneShare)")
        #expect(quietShare > 0.6, "the quiet part after a loud one skipped \(quietShare)")
    }

    /// The bound must not skip a chunk whose samples all stay below the held reading while a
    /// point between them rises above it: a 0.5 sine, then near-silence with one burst of
    /// ±0.45 samples whose phase flips (the point halfway between the two equal samples of
    /// the flip reaches ≈ 0.87).
    @Test func anInterSamplePeakAboveTheHeldReadingIsFoundInAQuietChunk() {
        let rate = 48_000
        var samples = [Float](repeating: 0, count: rate * 2)
        for index in 0..<rate { samples[index] = 0.5 * Float(sin(Double(index) * 0.05)) }
        for index in rate..<(rate * 2) { samples[index] = 0.001 * Float(sin(Double(index) * 0.3)) }
        let at = rate * 2 - 3_000
        for (offset, value) in [Float](arrayLiteral: -0.45, 0.45, -0.45, 0.45, 0.45, -0.45, 0.45, -0.45).enumerated() {
            samples[at + offset] = value
        }
        var meter = TruePeakMeter(channels: 1, sampleRate: rate)
        samples.withUnsafeBufferPointer { meter.consume($0) }
        var old = OldTruePeakMeter(channels: 1, sampleRate: rate)
        for sample in samples { old.consume(sample) }
        #expect(old.truePeak > 0.8, "the test signal has its inter-sample peak: \(old.truePeak)")
        #expect(meter.samplePeakLevel < Decibels.fromAmplitude(0.5001), "no sample above the sine's crest")
        #expect(Float(meter.truePeakAmplitude(forChannel: 0)) == old.truePeak)
        #expect(meter.skippedChunkCount > 80, "the near-silence around the burst was skipped: \(meter.skippedChunkCount)")
    }

    /// Full-band noise around a DC offset (0…4095 of 32768), once an early sample of 0.18 has
    /// set the reading above what phases 1 and 3 can reach (Σ|c| 1.755: 0.172), needs the
    /// half-way phase alone (Σ|c| 2.04: up to 0.19) or nothing in most chunks; a steady tone
    /// skips about half of its blocks of eight instants, on its flanks (the line-and-curvature
    /// bound). Both read as the old meter, to the bit, channel by channel.
    @Test func halfPhaseChunksAndSkippedBlocksReadAsBefore() {
        var noise = SignalSynthesis.floats(SignalSynthesis.offsetNoise(rate: 48_000, channels: 2, seconds: 3, seed: 21))
        noise[200] = 0.18
        noise[201] = 0.18
        let tone = SignalSynthesis.floats(
            SignalSynthesis.tone(rate: 48_000, channels: 2, frequency: 1_000, dBFS: -12, seconds: 2))
        for (samples, name) in [(noise, "offset noise"), (tone, "tone")] {
            let signal = (rate: 48_000, channels: 2)
            var meter = TruePeakMeter(channels: signal.channels, sampleRate: signal.rate)
            samples.withUnsafeBufferPointer { meter.consume($0) }
            var old = OldTruePeakMeter(channels: signal.channels, sampleRate: signal.rate)
            for sample in samples { old.consume(sample) }
            for channel in 0..<signal.channels {
                #expect(Float(meter.truePeakAmplitude(forChannel: channel)) == old.reading(channel: channel), "\(name) \(channel)")
            }
            let chunks = samples.count / TruePeakMeter.chunkLength
            if name == "tone" {
                // About half: 49.9 % of this 1 kHz tone's blocks (48 samples a period).
                #expect(meter.skippedBlockCount * 5 > chunks * TruePeakMeter.chunkLength / 8 * 2, "tone blocks skipped: \(meter.skippedBlockCount)")
            } else {
                let cheaper = meter.halfPhaseChunkCount + meter.skippedChunkCount
                #expect(meter.halfPhaseChunkCount > 0 && cheaper * 2 > chunks,
                    "half-phase chunks \(meter.halfPhaseChunkCount), skipped \(meter.skippedChunkCount), of \(chunks)")
            }
        }
    }

    /// Seeded signals built to sit near the bounds — a crest that sets the reading, then tones a
    /// little below it with dither, sign flips, lone spikes and steps (points between samples
    /// above every sample around them) — read as the old meter, to the bit, channel by channel,
    /// at ×4 and ×2, as Int16 and as Float.
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func signalsNearTheBoundsReadAsBefore(seed: UInt64) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for rate in [48_000, 96_000] {
            let channels = 2
            let frames = rate
            var samples = [Float](repeating: 0, count: frames * channels)
            for channel in 0..<channels {
                let crest = 0.3 + 0.5 * random()
                let frequency = 200 + 3_000 * random()
                let dither = 0.02 * random()
                for frame in 0..<frames {
                    let t = Double(frame) / Double(rate)
                    var value = (frame < 2_000 ? crest : crest * (0.6 + 0.35 * random()))
                        * sin(2 * Double.pi * frequency * t) + dither * (random() - 0.5)
                    let event = random()
                    if event < 0.002 {
                        value = crest * (random() < 0.5 ? -0.97 : 0.97)  // a lone spike
                    } else if event < 0.004, frame > 0 {
                        value = -Double(samples[(frame - 1) * channels + channel])  // a sign flip
                    }
                    samples[frame * channels + channel] = Float(value)
                }
            }
            var float = TruePeakMeter(channels: channels, sampleRate: rate)
            samples.withUnsafeBufferPointer { float.consume($0) }
            var old = OldTruePeakMeter(channels: channels, sampleRate: rate)
            for sample in samples { old.consume(sample) }
            let integers = samples.map { Int16(($0 * 32_767).rounded()) }
            var int16 = TruePeakMeter(channels: channels, sampleRate: rate)
            integers.withUnsafeBufferPointer { int16.consume($0) }
            var oldInt16 = OldTruePeakMeter(channels: channels, sampleRate: rate)
            for sample in integers { oldInt16.consume(sample) }
            for channel in 0..<channels {
                #expect(Float(float.truePeakAmplitude(forChannel: channel)) == old.reading(channel: channel),
                    "seed \(seed) \(rate) Hz float channel \(channel)")
                #expect(Float(int16.truePeakAmplitude(forChannel: channel)) == oldInt16.reading(channel: channel),
                    "seed \(seed) \(rate) Hz Int16 channel \(channel)")
                #expect(int16.samplePeakLevel(forChannel: channel) == Decibels.fromAmplitude(Double(oldInt16.samplePeaks[channel])))
            }
            #expect(int16.clipCount == oldInt16.clipCount)
            if rate == 48_000 {
                #expect(float.skippedBlockCount > 0, "seed \(seed): the block bound was exercised")
            }
        }
    }

    /// Buffers of any size (one sample, mid-frame splits, a chunk and one) read the same.
    @Test(arguments: [1, 7, 512, 513, 4_801])
    func anyBufferSizeReadsTheSame(size: Int) {
        let signal = SignalSynthesis.speechLike(rate: 48_000, channels: 2, seconds: 1.5, seed: 9)
        let samples = SignalSynthesis.floats(signal)
        var whole = TruePeakMeter(channels: 2, sampleRate: 48_000)
        samples.withUnsafeBufferPointer { whole.consume($0) }
        var split = TruePeakMeter(channels: 2, sampleRate: 48_000)
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + size)
            samples[start..<end].withUnsafeBufferPointer { split.consume($0) }
            start = end
        }
        var old = OldTruePeakMeter(channels: 2, sampleRate: 48_000)
        for sample in samples { old.consume(sample) }
        #expect(split.truePeakLevel == whole.truePeakLevel)
        #expect(split.clipCount == whole.clipCount)
        for channel in 0..<2 {
            #expect(Float(split.truePeakAmplitude(forChannel: channel)) == old.reading(channel: channel), "channel \(channel)")
        }
    }
}

/// The true-peak meter as it was before they were made cheaper: every phase (phase 0 included) of every
/// input instant, nothing skipped, the coefficients applied oldest input first in two
/// accumulators (even and odd taps) — the same arithmetic in the same order, one sample at a
/// time. Slow, and only for comparison.
struct OldTruePeakMeter {
    static let tapCount = TruePeakInterpolator.tapsPerPhase
    let channels: Int
    let factor: Int
    /// Lane 0…3 after one another: tap `j` of phase `lane % factor`, for inputs oldest first.
    let taps: [Float]
    /// Per channel, the latest `tapCount` samples oldest first.
    var windows: [Float]
    var truePeaks: [Float]
    var samplePeaks: [Float]
    /// Clips the plain way: per channel, a run of full-scale samples counted when it reaches
    /// `ClipRule.consecutiveFullScaleSamples`.
    var clipCount = 0
    var runs: [Int]
    var next = 0

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        let factor = TruePeakMeter.oversamplingFactor(sampleRate: sampleRate)
        self.factor = factor
        let count = Self.tapCount
        let phases = (0..<factor).map { TruePeakInterpolator.phaseCoefficients(phase: $0, factor: factor) }
        taps = (0..<4).flatMap { lane in (0..<count).map { Float(phases[lane % factor][count - 1 - $0]) } }
        windows = Array(repeating: 0, count: channels * count)
        truePeaks = Array(repeating: 0, count: channels)
        samplePeaks = Array(repeating: 0, count: channels)
        runs = Array(repeating: 0, count: channels)
    }

    mutating func consume<Sample: LoudnessSample>(_ sample: Sample) {
        let value = Sample.normalizedValue(sample)
        if Sample.isFullScale(sample) {
            runs[next] += 1
            if runs[next] == ClipRule.consecutiveFullScaleSamples { clipCount += 1 }
        } else {
            runs[next] = 0
        }
        samplePeaks[next] = max(samplePeaks[next], value.magnitude)
        let count = Self.tapCount
        let channel = next
        var peak = truePeaks[channel]
        windows.withUnsafeMutableBufferPointer { windows in
            let window = windows.baseAddress.map { $0 + channel * count }
            guard let window else { return }
            for index in 0..<(count - 1) { window[index] = window[index + 1] }
            window[count - 1] = value
            taps.withUnsafeBufferPointer { taps in
                for lane in 0..<4 {
                    var even: Float = 0
                    var odd: Float = 0
                    var index = 0
                    while index + 1 < count {
                        even = even + taps[lane * count + index] * window[index]
                        odd = odd + taps[lane * count + index + 1] * window[index + 1]
                        index += 2
                    }
                    peak = max(peak, (even + odd).magnitude)
                }
            }
        }
        truePeaks[channel] = peak
        next = (next + 1) % channels
    }

    /// The reading of `channel`: its largest oversampled magnitude or sample peak.
    func reading(channel: Int) -> Float { max(truePeaks[channel], samplePeaks[channel]) }

    /// The reading: the largest oversampled magnitude or sample peak of any channel.
    var truePeak: Float { max(truePeaks.max() ?? 0, samplePeak) }
    var samplePeak: Float { samplePeaks.max() ?? 0 }
}
