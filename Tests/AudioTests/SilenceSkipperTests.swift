import TestSupport
import Foundation
import Testing

@testable import Audio

/// Skip silence on synthesised memos: tone and pauses over a seeded noise floor.
@Suite struct SilenceSkipperTests {
    static let rate = 48_000

    /// Mono sections: (seconds, tone peak in dBFS or nil for noise only), over noise at `noiseDB` RMS.
    static func memo(_ sections: [(Double, Float?)], noiseDB: Float = -65) -> [Float] {
        var generator = SeededRandom(seed: 7)
        let noise = Float(pow(10, Double(noiseDB) / 20))
        var samples: [Float] = []
        var frame = 0
        for (seconds, peak) in sections {
            let amplitude = peak.map { Float(pow(10, Double($0) / 20)) } ?? 0
            for _ in 0..<Int(seconds * Double(rate)) {
                samples.append(amplitude * Float(sin(2 * Double.pi * 300 * Double(frame) / Double(rate))) + noise * Float(generator.gaussian()))
                frame += 1
            }
        }
        return samples
    }

    /// Plays `samples` through a skipper in 20 ms chunks; returns what was kept.
    static func play(_ samples: [Float], skipper: inout SilenceSkipper) -> [Float] {
        var output: [Float] = []
        var buffer = [Float](repeating: 0, count: rate / 50)
        var start = 0
        while start < samples.count {
            let count = min(rate / 50, samples.count - start)
            buffer.replaceSubrange(0..<count, with: samples[start..<(start + count)])
            let kept = buffer.withUnsafeMutableBufferPointer { skipper.process($0.baseAddress!, frames: count) }
            output += buffer[0..<kept]
            start += count
        }
        return output
    }

    @Test func longPausesShrinkToAQuarterOfASecond() {
        let memo = Self.memo([(1, -12), (3, nil), (1, -12), (0.2, nil), (1, -20), (2, nil)])
        var skipper = SilenceSkipper(channels: 1, sampleRate: Self.rate)
        let played = Self.play(memo, skipper: &skipper)
        let seconds = Double(played.count) / Double(Self.rate)
        // 1 + 0.25 + 1 + 0.2 (short: kept whole) + 1 + 0.25.
        #expect(abs(seconds - 3.7) < 0.05, "\(seconds) s played")
        #expect(abs(Double(skipper.skippedFrames) / Double(Self.rate) - 4.5) < 0.05, "skipped \(skipper.skippedFrames) frames")
        #expect(skipper.noiseFloorDB < -60 && skipper.noiseFloorDB > -72, "the floor found: \(skipper.noiseFloorDB)")
    }

    @Test func theSoundAfterASkipFadesIn() {
        let memo = Self.memo([(1, -6), (2, nil), (1, -6)], noiseDB: -80)
        var skipper = SilenceSkipper(channels: 1, sampleRate: Self.rate)
        let played = Self.play(memo, skipper: &skipper)
        // The join is at 1.25 s: the next samples rise from zero over 5 ms, never a jump.
        let join = Int(1.25 * Double(Self.rate))
        let largestStep = zip(played[(join - 10)..<(join + 480)], played[(join - 9)..<(join + 481)]).map { abs($1 - $0) }.max() ?? 1
        let toneStep = Float(0.5 * 2 * Double.pi * 300 / Double(Self.rate))
        #expect(largestStep <= toneStep * 1.05, "no click at the join: step \(largestStep), the tone's own \(toneStep)")
    }

    @Test func quietSpeechIsNeverSkipped() {
        // −40 dBFS "speech" over a −65 dBFS floor, after a 0.5 s pause: only the pause's
        // second quarter second is skipped, none of the sound.
        let memo = Self.memo([(0.5, nil), (4, -40)])
        var skipper = SilenceSkipper(channels: 1, sampleRate: Self.rate)
        let played = Self.play(memo, skipper: &skipper)
        #expect(abs(skipper.skippedFrames - Self.rate / 4) <= Self.rate / 100, "\(skipper.skippedFrames) frames skipped")
        #expect(played.count + skipper.skippedFrames == memo.count)
    }

    @Test func aRisingRoomIsFollowed() {
        // The room gets 10 dB louder halfway; its pauses are still found.
        let quiet = Self.memo([(1, -12), (2, nil)], noiseDB: -70)
        let loud = Self.memo([(1, -12), (3, nil), (1, -12)], noiseDB: -60)
        var skipper = SilenceSkipper(channels: 1, sampleRate: Self.rate)
        let played = Self.play(quiet + loud, skipper: &skipper)
        let skipped = Double(skipper.skippedFrames) / Double(Self.rate)
        #expect(skipped > 3.5, "skipped \(skipped) s of 5 s of pauses")
        #expect(Double(played.count) / Double(Self.rate) > 3, "the three tones play")
    }

    @Test func stereoFramesStayWhole() {
        let mono = Self.memo([(1, -12), (2, nil), (1, -12)])
        let stereo = mono.flatMap { [$0, -$0] }
        var skipper = SilenceSkipper(channels: 2, sampleRate: Self.rate)
        let played = Self.play(stereo, skipper: &skipper)
        #expect(played.count % 2 == 0)
        #expect(stride(from: 0, to: played.count, by: 2).allSatisfy { played[$0] == -played[$0 + 1] }, "left and right stay paired")
    }
}
