@testable import TestSupport
import Foundation
import Glibc
import SoundFiles
import Testing

@testable import Audio

/// The player against the file-backed ALSA test device (plug → S16_LE 48 kHz stereo
/// → raw file): what is played must land in the file frame for frame.
@Suite struct PlayerTests {
    @Test func pcm16PlaysBitExactAndDrainsTheTail() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        // An odd length, so the last write is a partial chunk.
        let file = try fixture.writeCounter("counter.wav", frames: 100_003)
        let log = PlayerEventLog()
        let player = try fixture.player(file, events: log.events)
        #expect(player.duration == 100_003.0 / 48_000)
        #expect(player.frameCount == 100_003)
        #expect(!player.isPlaying)
        try player.play()
        #expect(log.waitForFinish())
        #expect(log.finishes == [true])
        #expect(log.errors.isEmpty)
        #expect(!player.isPlaying)
        #expect(player.currentTime == 0, "the end puts the play head back to the start")
        #expect(player.underruns == 0)
        #expect(firstDifference(try fixture.played(), PlayerFixture.counterSamples(frames: 100_003)) == "")
    }

    @Test func seekingToOneSecondStartsAtFrame48000() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("counter.wav", frames: 96_000)
        let log = PlayerEventLog()
        let player = try fixture.player(file, events: log.events)
        try player.prepareToPlay()
        player.currentTime = 1.0
        #expect(player.currentFrame == 48_000)
        try player.play()
        #expect(log.waitForFinish())
        let played = try fixture.played()
        #expect(played.count == 48_000 * 2)
        #expect(played.first == Int16(truncatingIfNeeded: 48_000), "the first frame played is frame 48000")
        #expect(firstDifference(played, Array(PlayerFixture.counterSamples(frames: 96_000).dropFirst(96_000))) == "")
    }

    @Test func meteringReadsWhatIsPlayed() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("sines.wav", seconds: 1, peak: 0.5, format: .wav, encoding: .float)
        let log = PlayerEventLog()
        let player = try fixture.player(file, events: log.events)
        player.updateMeters()
        #expect(player.averagePower(forChannel: 0) == -160)
        try player.play()
        #expect(log.waitForFinish())
        player.updateMeters()
        for channel in 0..<2 {
            // A sine peaking at −6.02 dBFS has an RMS 3.01 dB lower.
            #expect(abs(player.peakPower(forChannel: channel) - -6.02) < 0.1)
            #expect(abs(player.averagePower(forChannel: channel) - -9.03) < 0.1)
        }
        #expect(player.averagePower(forChannel: 2) == -160)
        player.updateMeters()
        #expect(player.peakPower(forChannel: 0) == -160, "nothing played since the last snapshot")
    }

    @Test func forcedUnderrunIsRecoveredCountedAndLosesNothing() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("counter.wav", frames: 30_000)
        let log = PlayerEventLog()
        let operations = FaultInjectingPCMOperations([.writeInterleaved: [3: Int(-EPIPE)]])
        let player = try fixture.player(file, operations: operations, events: log.events)
        try player.play()
        #expect(log.waitForFinish())
        #expect(log.finishes == [true])
        #expect(player.underruns == 1)
        #expect(firstDifference(try fixture.played(), PlayerFixture.counterSamples(frames: 30_000)) == "")
    }

    @Test func deviceVanishingMidPlayIsAnErrorEvent() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("counter.wav", frames: 30_000)
        let log = PlayerEventLog()
        let operations = FaultInjectingPCMOperations([.writeInterleaved: [2: Int(-ENODEV)]])
        let player = try fixture.player(file, operations: operations, events: log.events)
        try player.play()
        #expect(log.waitForFinish())
        #expect(log.finishes == [false])
        #expect(log.errors.map(\.kind) == [.device])
        #expect(log.errors.first?.message.contains("voicememo_playback") == true)
        #expect(log.errors.first?.message.contains("disconnected") == true)
        #expect(player.error?.kind == .device)
        #expect(!player.isPlaying)
    }

    @Test func unknownDeviceIsAClearErrorFromPrepare() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("counter.wav", frames: 4800)
        let player = try Player(url: file, device: "no_such_device", eventQueue: DispatchQueue(label: "t"))
        let error = #expect(throws: PlayerError.self) { try player.prepareToPlay() }
        #expect(error?.kind == .device)
        #expect(error?.message.contains("no_such_device") == true)
        #expect(error?.message.contains("Unknown PCM") == true)
        #expect(throws: PlayerError.self) { try player.play() }
        #expect(!player.isPlaying)
    }

    @Test func seekRefusesTimesOutsideTheFile() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("counter.wav", frames: 48_000)
        let player = try fixture.player(file)
        for time in [-0.5, 1.5, Double.nan] {
            let error = #expect(throws: PlayerError.self) { try player.seek(to: time) }
            #expect(error?.kind == .seek)
        }
        try player.seek(to: 0.5)
        #expect(player.currentFrame == 24_000)
        player.currentTime = 99
        #expect(player.currentFrame == 48_000, "the setter clamps")
        player.currentTime = -1
        #expect(player.currentFrame == 0)
    }
}
