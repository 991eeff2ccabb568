import TestSupport
import Foundation
import Glibc
import SoundFiles
import Testing

@testable import Audio

/// Speed, pitch, volume and skip silence through the real player and the file-backed ALSA
/// device (plug → S16_LE 48 kHz stereo → raw file): what the device received is measured.
@Suite struct PlayerAdjustmentTests {
    static let rate = 48_000

    /// Plays `file` with `adjustments` to its end; returns the left channel the device got.
    func playedLeft(_ fixture: PlayerFixture, _ file: String, _ adjustments: PlaybackAdjustments) throws -> (left: [Float], player: Player) {
        let log = PlayerEventLog()
        let player = try fixture.player(file, adjustable: true, events: log.events)
        try player.setAdjustments(adjustments)
        try player.play()
        #expect(log.waitForFinish(seconds: 60))
        #expect(log.errors.isEmpty, "\(log.errors)")
        let played = try fixture.played()
        return (stride(from: 0, to: played.count, by: 2).map { Float(played[$0]) / 32768 }, player)
    }

    /// Rising zero crossings per second over the middle second.
    static func frequency(_ left: [Float]) -> Double {
        let middle = left.count / 2
        let window = Array(left[max(0, middle - rate / 2)..<min(left.count, middle + rate / 2)])
        var crossings: [Int] = []
        for index in 1..<window.count where window[index - 1] < 0 && window[index] >= 0 { crossings.append(index) }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / Double(last - first)
    }

    static func peak(_ left: [Float]) -> Float { left.map(abs).max() ?? 0 }

    @Test(arguments: [0.5, 2.0])
    func speedKeepsThePitch(speed: Double) throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("tone.wav", seconds: 4, peak: 0.5, format: .wav)
        let (left, _) = try playedLeft(fixture, file, PlaybackAdjustments(speed: speed))
        let seconds = Double(left.count) / Double(Self.rate)
        #expect(abs(seconds - 4 / speed) < 0.15, "\(seconds) s at \(speed)×")
        #expect(abs(Self.frequency(left) - 440) < 3, "\(Self.frequency(left)) Hz")
    }

    @Test func pitchKeepsTheLength() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("tone.wav", seconds: 3, peak: 0.5, format: .wav)
        let (left, _) = try playedLeft(fixture, file, PlaybackAdjustments(pitchSemitones: 12))
        #expect(abs(Double(left.count) / Double(Self.rate) - 3) < 0.15)
        #expect(abs(Self.frequency(left) - 880) < 6, "\(Self.frequency(left)) Hz")
    }

    @Test func volumeScalesAndCountsClipping() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("tone.wav", seconds: 1, peak: 0.8, format: .wav)
        let (half, quiet) = try playedLeft(fixture, file, PlaybackAdjustments(volume: 0.5))
        #expect(abs(Self.peak(half) - 0.4) < 0.01, "\(Self.peak(half))")
        #expect(quiet.clippedSamples == 0)
        #expect(half.count == Self.rate, "volume alone keeps every frame")
        let fixture2 = try PlayerFixture()
        defer { fixture2.remove() }
        let file2 = try fixture2.writeSines("tone.wav", seconds: 1, peak: 0.8, format: .wav)
        let (loud, player) = try playedLeft(fixture2, file2, PlaybackAdjustments(volume: 1.5))
        #expect(Self.peak(loud) > 0.99, "150 % of 0.8 reaches full scale")
        #expect(player.clippedSamples > 1000, "and says how often it clipped: \(player.clippedSamples)")
    }

    @Test func skipSilenceLeavesOutTheLongPause() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        // 1 s tone, 3 s digital silence, 1 s tone.
        var samples = [Int16](repeating: 0, count: 5 * Self.rate * 2)
        for frame in 0..<(5 * Self.rate) where frame < Self.rate || frame >= 4 * Self.rate {
            let value = Int16(8000 * sin(2 * Double.pi * 440 * Double(frame) / Double(Self.rate)))
            samples[frame * 2] = value
            samples[frame * 2 + 1] = value
        }
        let file = try fixture.write("pause.wav", samples: samples, format: .wav)
        let (left, player) = try playedLeft(fixture, file, PlaybackAdjustments(skipsSilence: true))
        let seconds = Double(left.count) / Double(Self.rate)
        #expect(abs(seconds - 2.25) < 0.05, "1 s + 0.25 s of the pause + 1 s: \(seconds) s")
        #expect(abs(player.skippedSeconds - 2.75) < 0.05, "\(player.skippedSeconds) s skipped")
    }

    @Test func refusedAdjustmentsChangeNothing() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("counter.wav", frames: 4800)
        let plain = try fixture.player(file)
        #expect(throws: PlayerError.self) { try plain.setAdjustments(PlaybackAdjustments(speed: 2)) }
        try plain.setAdjustments(PlaybackAdjustments())
        let adjustable = try fixture.player(file, adjustable: true)
        for bad in [
            PlaybackAdjustments(speed: 0.4), PlaybackAdjustments(speed: 3.5), PlaybackAdjustments(speed: .nan),
            PlaybackAdjustments(pitchSemitones: 13), PlaybackAdjustments(volume: 1.6), PlaybackAdjustments(volume: -0.1),
        ] {
            #expect(throws: PlayerError.self) { try adjustable.setAdjustments(bad) }
        }
        #expect(adjustable.adjustments == PlaybackAdjustments())
    }
}
