@testable import TestSupport
import Foundation
import Glibc
import SoundFiles
import Testing

@testable import Audio

/// The player against the file-backed ALSA test device, slowed to pause and seek mid-way (plug → S16_LE 48 kHz stereo
/// → raw file): what is played must land in the file frame for frame.
@Suite struct PlayerTests {
    @Test func pauseAndResumeNeitherRepeatNorDropAFrame() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        // 12 s: after the last pause point (100 000) the player has about 1 s of writes left. With
        // 3 s it had 0.09 s, and a test thread starved that long after the point (a loaded
        // machine) paused a player that had already finished.
        let frames = 48_000 * 12
        let file = try fixture.writeCounter("counter.wav", frames: frames)
        let log = PlayerEventLog()
        // ~2 ms per 20 ms chunk: twelve seconds play in about 1.2 s, slow enough to pause mid-way.
        let player = try fixture.player(
            file, operations: SlowWritePCMOperations(microsecondsPerWrite: 2000), events: log.events)
        try player.play()
        var pausedAt: [Int] = []
        for stop in [20_000, 60_000, 100_000] {
            #expect(waitUntil { player.currentFrame >= stop })
            player.pause()
            #expect(!player.isPlaying)
            usleep(30_000)
            let position = player.currentFrame
            usleep(30_000)
            #expect(player.currentFrame == position, "paused means the play head stands still")
            pausedAt.append(position)
            try player.play()
            #expect(player.isPlaying)
        }
        #expect(log.waitForFinish())
        #expect(log.finishes == [true])
        #expect(pausedAt.allSatisfy { $0 > 0 && $0 < frames }, "paused mid-way at \(pausedAt)")
        #expect(firstDifference(try fixture.played(), PlayerFixture.counterSamples(frames: frames)) == "")
    }

    /// The same on a device that holds 100 ms of written frames unplayed (as hardware
    /// and sound servers do): pausing drops them and resumes from the first frame not
    /// heard, so the listener hears the counter exactly once, in order.
    @Test func pauseOnADeviceThatHoldsFramesNeitherRepeatsNorDrops() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        // 12 s, as above: after the last pause point (120 000) about 0.95 s of writes are left,
        // not the 0.05 s of a 3 s file.
        let frames = 48_000 * 12
        let file = try fixture.writeCounter("counter.wav", frames: frames)
        let log = PlayerEventLog()
        let device = QueueingPCMOperations(holdingFrames: 4800, microsecondsPerWrite: 2000)
        let player = try fixture.player(file, operations: device, events: log.events)
        try player.play()
        for stop in [20_000, 50_000, 90_000, 120_000] {
            #expect(waitUntil { player.currentFrame >= stop })
            player.pause()
            let position = player.currentFrame
            #expect(device.played.count / 2 == position, "the play head is what was heard")
            usleep(20_000)
            try player.play()
        }
        #expect(log.waitForFinish())
        #expect(log.finishes == [true])
        #expect(firstDifference(device.played, PlayerFixture.counterSamples(frames: frames)) == "")
    }

    @Test func seekWhilePlayingAndWhilePausedIsFrameExact() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let frames = 48_000 * 4
        let file = try fixture.writeCounter("counter.wav", frames: frames)
        let log = PlayerEventLog()
        let player = try fixture.player(
            file, operations: SlowWritePCMOperations(microsecondsPerWrite: 2000), events: log.events)
        try player.play()
        #expect(waitUntil { player.currentFrame >= 24_000 })
        player.pause()
        player.currentTime = 3.0
        #expect(player.currentFrame == 144_000)
        try player.play()
        #expect(log.waitForFinish())
        // Everything before the pause, then from frame 144000 exactly to the end.
        let played = try fixture.played()
        let counter = PlayerFixture.counterSamples(frames: frames)
        let tail = Array(counter.dropFirst(144_000 * 2))
        #expect(played.count > tail.count)
        let head = played.count - tail.count
        #expect(firstDifference(Array(played.prefix(head)), Array(counter.prefix(head))) == "")
        #expect(firstDifference(Array(played.suffix(tail.count)), tail) == "")
    }

    @Test func stopReleasesTheDeviceKeepsThePositionAndSendsNoEvent() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("counter.wav", frames: 48_000 * 3)
        let log = PlayerEventLog()
        let player = try fixture.player(
            file, operations: SlowWritePCMOperations(microsecondsPerWrite: 2000), events: log.events)
        try player.play()
        #expect(waitUntil { player.currentFrame >= 10_000 })
        player.stop()
        #expect(!player.isPlaying)
        let position = player.currentFrame
        #expect(position >= 10_000 && position < 48_000 * 3)
        #expect(!log.waitForFinish(seconds: 0.3), "stop() sends no didFinishPlaying")
        // Playing again goes on from where it stopped, to the end.
        try player.play()
        #expect(log.waitForFinish())
        #expect(log.finishes == [true])
    }
}
