import TestSupport
import Dispatch
import Foundation
import Glibc
import Testing

@testable import Audio

/// The player against a real-time device: a private null sink on the suite's PulseAudio daemon
/// (see `PulseServer`), the only paced playback device on a machine without a sound card.
///
/// The null sink starts consuming a new stream only after about 1.5 s (it renders in
/// blocks of up to 2 s while idle, measured here with plain `snd_pcm_writei`), so the
/// timing is taken from the moment the play head starts moving — the first frame heard
/// — to `didFinishPlaying`, which comes after the drain.
@Suite(.serialized)
struct PlayerPulseTests {
    private func player(_ file: String, server: PulseServer, log: PlayerEventLog) throws -> Player {
        try Player(
            url: file, device: PulseServer.device, configFile: server.configFile,
            eventQueue: DispatchQueue(label: "pulse-player-events"), events: log.events)
    }

    @Test func twoSecondsPlayInTwoSeconds() throws {
        let server = try PulseServer()
        defer { server.stop() }
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("two.flac", seconds: 2, peak: 0.5, format: .flac)
        let log = PlayerEventLog()
        let player = try player(file, server: server, log: log)
        try player.prepareToPlay()
        let requested = ContinuousClock.now
        try player.play()
        // The first 0.1 s heard marks the start (the plugin reports a few frames as
        // consumed at once, before the sink really starts).
        #expect(waitUntil { player.currentTime >= 0.1 })
        let firstHeard = ContinuousClock.now
        usleep(1_000_000)
        let afterOneSecond = player.currentTime
        player.updateMeters()
        let peak = player.peakPower(forChannel: 0)
        #expect(log.waitForFinish(seconds: 10))
        let finished = ContinuousClock.now
        let playing = finished - firstHeard
        print("PlayerPulseTests: the last 1.9 s of 2 s of FLAC played in \(playing) (0.1 s heard \(firstHeard - requested) after play()); play head 1 s later: \(afterOneSecond) s; underruns \(player.underruns)")
        #expect(log.finishes == [true])
        // 1.9 s of audio remain after the first 0.1 s: ± 10 %.
        #expect(playing > .milliseconds(1710) && playing < .milliseconds(2090), "took \(playing)")
        #expect(afterOneSecond > 0.95 && afterOneSecond < 1.25, "the play head follows what is heard: \(afterOneSecond) s")
        #expect(abs(peak - -6.02) < 0.5, "the meter follows playback: \(peak) dB")
        #expect(player.underruns == 0)
    }

    @Test func pauseHoldsThePlayHeadAndResumeGoesOnFromThere() throws {
        let server = try PulseServer()
        defer { server.stop() }
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("two.wav", seconds: 2, peak: 0.5, format: .wav)
        let log = PlayerEventLog()
        let player = try player(file, server: server, log: log)
        try Self.expectPauseHoldsThePlayHeadAndResumeGoesOn(player, log: log)
    }

    /// Plays `player` (2 s) to 0.5 s, pauses it (before 0.8 s), checks that the play
    /// head holds for 0.4 s, resumes, and checks that it goes on from there to the end.
    static func expectPauseHoldsThePlayHeadAndResumeGoesOn(_ player: Player, log: PlayerEventLog) throws {
        try player.play()
        #expect(waitUntil { player.currentTime >= 0.5 })
        player.pause()
        #expect(!player.isPlaying)
        let pausedAt = player.currentTime
        usleep(400_000)
        #expect(player.currentTime == pausedAt, "the play head stands still while paused")
        #expect(pausedAt >= 0.5 && pausedAt < 0.8, "paused at \(pausedAt) s")
        try player.play()
        #expect(player.currentTime >= pausedAt, "resuming never goes back")
        #expect(waitUntil { player.currentTime > pausedAt + 0.2 })
        #expect(log.waitForFinish(seconds: 10))
        #expect(log.finishes == [true])
    }
}
