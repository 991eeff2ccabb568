import TestSupport
import Foundation
import SoundFiles
import Testing
@testable import Transcription

@Suite struct ResamplingTests {
    /// 48 kHz stereo → 16 kHz mono: a third of the frames, the tone's frequency kept.
    @Test(arguments: [(48_000, 2), (44_100, 1), (16_000, 1), (8_000, 2)])
    func readsAnyRateAsSixteenKilohertzMono(rate: Int, channels: Int) throws {
        let folder = try TemporaryDirectory(prefix: "transcription")
        let path = folder.path + "/tone.wav"
        let seconds = 3.0
        try writeTone(to: path, sampleRate: rate, channels: channels, seconds: seconds, frequency: 1000)
        let reader = try SpeechAudioReader(path: path)
        var samples: [Int16] = []
        while let block = try reader.nextBlock() { samples += block }
        #expect(abs(samples.count - 48_000) <= 1, "\(samples.count) samples from \(rate) Hz")
        #expect(reader.fractionRead == 1)
        // Count rising zero crossings over the middle two seconds: 1000 Hz → 2000.
        let middle = samples[8_000..<40_000]
        var crossings = 0
        var previous = middle.first ?? 0
        for sample in middle.dropFirst() {
            if previous < 0 && sample >= 0 { crossings += 1 }
            previous = sample
        }
        #expect(abs(crossings - 2000) <= 1, "\(crossings) crossings")
        // The level survives: −6 dBFS peak is about 16 384.
        let peak = middle.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 15_500 && peak < 17_200, "peak \(peak)")
    }

    @Test func refusesImpossibleRatios() {
        #expect(throws: ResamplingError.self) { try Resampler(inputRate: 16_000, outputRate: 16_000 * 300) }
        #expect(throws: ResamplingError.self) { try Resampler(inputRate: 0, outputRate: 16_000) }
    }
}
