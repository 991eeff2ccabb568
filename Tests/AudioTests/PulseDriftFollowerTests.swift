import Testing

@testable import Audio

/// The rule that keeps a meeting's two inputs of their own clocks aligned, on leads a test
/// makes up and time it steps: the chunks the streams arrive in and a change in them drop
/// nothing; a drift is dropped from the input that runs ahead, about as much as it drifted.
@Suite struct PulseDriftFollowerTests {
    /// 20 ms fragments at 48 kHz, windows of 10 s: the joined source's own figures.
    static let tolerance = 960
    static let window: Duration = .seconds(10)

    /// Runs `seconds` of reads every 20 ms; the lead at read `n` is `lead(n)` plus what the
    /// follower dropped so far (it lowers the lead of the input it drops from). Returns every
    /// drop with its read.
    static func run(seconds: Int, lead: (Int) -> Int) -> [(read: Int, frames: Int)] {
        var follower = PulseDriftFollower(window: window, toleranceFrames: tolerance)
        let start = ContinuousClock.now
        var droppedFromFirst = 0
        var drops: [(Int, Int)] = []
        for read in 0..<(seconds * 50) {
            let drop = follower.observe(lead: lead(read) - droppedFromFirst, at: start + .milliseconds(20 * read))
            if drop != 0 {
                droppedFromFirst += drop
                drops.append((read, drop))
            }
        }
        return drops
    }

    /// The first input arrives in 20 ms chunks, the second in 5 ms ones, out of phase, and
    /// at 40 s the second's chunks change (its lead's middle steps by 360 frames): one clock,
    /// nothing dropped over 20 minutes.
    @Test func theChunksOfOneClockDropNothing() {
        let drops = Self.run(seconds: 1200) { read in
            let first = (read % 2) * 960
            let second = read < 2000 ? (read % 4) * 240 : (read % 4) * 240 - 360
            return first - second
        }
        #expect(drops.isEmpty, "\(drops)")
    }

    /// The first input's clock 100 ppm fast (4.8 frames a second ahead) under the same chunk
    /// jitter: frames of the first are dropped, each time just past the tolerance, and over 20
    /// minutes about what it ran ahead.
    @Test func aFasterFirstClockDropsFramesOfTheFirst() {
        let drops = Self.run(seconds: 1200) { read in read * 48 / 500 + (read % 2) * 960 }
        let total = drops.reduce(0) { $0 + $1.frames }
        #expect(!drops.isEmpty && drops.allSatisfy { $0.frames > Self.tolerance && $0.frames < 2 * Self.tolerance }, "\(drops)")
        #expect(abs(total - 1200 * 48 / 10) <= 2 * Self.tolerance, "dropped \(total) frames of 5760 ahead")
    }

    /// The second input's clock fast: the drops are the second's (negative).
    @Test func aFasterSecondClockDropsFramesOfTheSecond() {
        let drops = Self.run(seconds: 600) { read in -read * 96 / 500 }
        #expect(!drops.isEmpty && drops.allSatisfy { $0.frames < -Self.tolerance }, "\(drops)")
    }

    /// The first window sets the baseline and nothing is dropped before it ends, whatever the
    /// lead: a start where one input arrived well before the other is taken as it is.
    @Test func theFirstWindowIsTheBaseline() {
        let drops = Self.run(seconds: 25) { _ in 3000 }
        #expect(drops.isEmpty)
    }
}
