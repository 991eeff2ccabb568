import Glibc
import Testing

@testable import VoiceActivation

/// The room's typical level: the median of its 10 ms levels over the last 3 s.
@Suite struct RoomMedianTests {
    static let rate = 48_000

    static func power(_ decibels: Double) -> Double { pow(10, decibels / 10) }

    @Test func nothingIsSaidBeforeHalfASecondHasBeenHeard() {
        var median = RoomMedian(sampleRate: Self.rate)
        median.add(power: Self.power(-50), frames: Self.rate / 2 - 1)
        #expect(median.levelDB == nil)
        median.add(power: Self.power(-50), frames: 1)
        #expect(median.levelDB == -50)
    }

    /// Loud slots under half of the window (a word, a thump) leave the median at the room's level.
    @Test func lessThanHalfTheWindowLouderLeavesTheRoomsLevel() {
        var median = RoomMedian(sampleRate: Self.rate)
        let slot = Self.rate / 100
        for index in 0..<RoomMedian.windowSlots {
            median.add(power: Self.power(index % 5 < 2 ? -10 : -47.2), frames: slot)
        }
        #expect(median.levelDB == -47)
    }

    /// The window forgets: three seconds of a louder room are the new level, whatever came before.
    @Test func theWindowFollowsARoomThatChanges() {
        var median = RoomMedian(sampleRate: Self.rate)
        median.add(power: Self.power(-70), frames: Self.rate * 10)
        #expect(median.levelDB == -70)
        median.add(power: Self.power(-40), frames: Self.rate * 2)
        #expect(median.levelDB == -40)
        median.add(power: Self.power(-55), frames: Self.rate * 3)
        #expect(median.levelDB == -55)
    }

    /// Digital silence, levels over full scale, and power that is not a number are counted at the
    /// ends of the range rather than stopping anything.
    @Test func silenceAndNonsenseAreCountedAtTheEnds() {
        var median = RoomMedian(sampleRate: Self.rate)
        median.add(power: 0, frames: Self.rate)
        #expect(median.levelDB == -120)
        median.add(power: .nan, frames: Self.rate * 3)
        #expect(median.levelDB == -120)
        median.add(power: 4, frames: Self.rate * 3)
        #expect(median.levelDB == 0)
    }

    /// The 99th percentile is what only the loudest slots exceed.
    @Test func aHighFractionIsWhatOnlyTheLoudestSlotsReach() {
        var median = RoomMedian(sampleRate: Self.rate)
        let slot = Self.rate / 100
        for index in 0..<RoomMedian.windowSlots {
            median.add(power: Self.power(index % 100 == 0 ? -30 : index % 10 == 0 ? -40 : -50), frames: slot)
        }
        #expect(median.levelDB == -50)
        #expect(median.levelDB(atFraction: 0.9) == -50)
        #expect(median.levelDB(atFraction: 0.95) == -40)
        #expect(median.levelDB(atFraction: 1) == -30)
    }

    /// With a delay, the newest slots wait before they count, and `discardRecent()` takes them
    /// back: the start of a word heard before its take is not the room.
    @Test func delayedSlotsCanBeTakenBack() {
        var median = RoomMedian(sampleRate: Self.rate, delaySlots: 50)
        median.add(power: Self.power(-60), frames: Self.rate)
        #expect(median.levelDB == -60, "0.5 s of the second counts")
        median.add(power: Self.power(-20), frames: Self.rate * 4 / 10)
        median.discardRecent()
        median.add(power: Self.power(-60), frames: Self.rate)
        #expect(median.levelDB(atFraction: 1) == -60, "the loud slots never counted")

        var kept = RoomMedian(sampleRate: Self.rate, delaySlots: 50)
        kept.add(power: Self.power(-60), frames: Self.rate)
        kept.add(power: Self.power(-20), frames: Self.rate * 4 / 10)
        kept.add(power: Self.power(-60), frames: Self.rate)
        #expect(kept.levelDB(atFraction: 1) == -20, "without the discard they count once they are 0.5 s old")
    }
}
