import Testing

@testable import Audio

/// When the writer asks the file system for free space (`FreeSpaceReserve.Allowance`), in
/// stepped time.
@Suite struct FreeSpaceReserveTests {
    typealias Allowance = FreeSpaceReserve.Allowance
    static let block = 19_200  // 0.1 s of 48 kHz stereo pcm16

    @Test func asksFirstThenWritesHalfTheHeadroomWithoutAsking() {
        var allowance = Allowance()
        let asks1 = allowance.mustAsk(beforeWriting: Self.block, at: .zero)
        #expect(asks1)
        // 10 MB free, 256 kB reserved: about 4.9 MB may go before asking again.
        allowance.asked(available: 10_000_000, reserve: 262_144, beforeWriting: Self.block, at: .zero)
        var written = Self.block
        var asked = false
        while !asked {
            asked = allowance.mustAsk(beforeWriting: Self.block, at: .milliseconds(50))
            if !asked { written += Self.block }
        }
        #expect(written <= (10_000_000 - 262_144) / 2)
        #expect(written > (10_000_000 - 262_144) / 2 - Self.block)
    }

    @Test func asksAgainAfterATenthOfASecondWhateverWasWritten() {
        var allowance = Allowance()
        allowance.asked(available: 100_000_000_000, reserve: 262_144, beforeWriting: Self.block, at: .seconds(3))
        let asks2 = allowance.mustAsk(beforeWriting: Self.block, at: .seconds(3) + .milliseconds(99))
        #expect(!asks2)
        let asks3 = allowance.mustAsk(beforeWriting: Self.block, at: .seconds(3) + .milliseconds(100))
        #expect(asks3)
    }

    @Test func nearTheReserveAsksBeforeEveryBlock() {
        var allowance = Allowance()
        allowance.asked(available: 262_144 + Self.block, reserve: 262_144, beforeWriting: Self.block, at: .zero)
        let asks4 = allowance.mustAsk(beforeWriting: Self.block, at: .milliseconds(1))
        #expect(asks4)
        allowance.asked(available: 100_000, reserve: 262_144, beforeWriting: Self.block, at: .milliseconds(1))
        let asks5 = allowance.mustAsk(beforeWriting: 1, at: .milliseconds(2))
        #expect(asks5)
    }

    @Test func unreadableFreeSpaceIsAskedForEveryTime() {
        var allowance = Allowance()
        allowance.asked(available: nil, reserve: 262_144, beforeWriting: Self.block, at: .zero)
        let asks6 = allowance.mustAsk(beforeWriting: 1, at: .milliseconds(1))
        #expect(asks6)
    }

    /// The real check on this machine's temporary directory: far from full, so it passes.
    @Test func checkPassesWhereThereIsRoom() throws {
        let reserve = FreeSpaceReserve(path: "/tmp", bytes: FreeSpaceReserve.defaultBytes)
        for _ in 0..<100 { try reserve.check(beforeWriting: Self.block) }
        #expect(throws: (any Error).self) {
            try FreeSpaceReserve(path: "/tmp", bytes: Int.max).check(beforeWriting: Self.block)
        }
    }
}
