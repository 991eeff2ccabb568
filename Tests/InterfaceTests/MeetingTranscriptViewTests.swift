import TestSupport
import Testing
import Vocabulary

@testable import Interface

/// A meeting memo's transcript in the `T` view: each stretch of one speaker's words starts on a
/// line of its own with the speaker's name ("Me:", "Them:"), in bold; a transcript without
/// speakers is laid out as before (its snapshots are `TranscriptViewTests`').
@Suite struct MeetingTranscriptViewTests {
    /// A meeting: "Me" asks, "Them" answers at length (20 words, wrapping onto a second line
    /// without a name), "Me" answers back at once (no pause: the change of speaker alone starts the line).
    static let words: [SpokenWord] = {
        var words: [SpokenWord] = []
        var time = 0.5
        func say(_ text: String, _ speaker: Speaker) {
            for word in text.split(separator: " ") {
                words.append(SpokenWord(word: String(word), start: time, end: time + 0.3, speaker: speaker))
                time += 0.4
            }
        }
        say("shall we go through the release plan", .me)
        time += 1.2
        say("yes the build is ready and the notes are written we only wait for the last review of the installer", .them)
        say("good then we ship on friday", .me)
        return words
    }()

    static func viewing(width: Int = 80, height: Int = 24) -> AppState {
        var state = Fixtures.state(width: width, height: height)
        _ = reduce(&state, .key(.character("T")))
        _ = reduce(&state, .transcriptLoaded(memoID: 1, .words(words)))
        _ = reduce(&state, .workFinished)
        return state
    }

    @Test func eachSpeakersStretchStartsALineWithItsName() throws {
        let lines = TranscriptLayout.lines(Self.words, width: 80)
        #expect(lines.map(\.speaker) == [.me, .them, nil, .me])
        #expect(lines.map(\.words) == [0..<7, 7..<20, 20..<27, 27..<33])
        let screen = AppView.render(Self.viewing())
        let rows = screen.lines()
        let me = try #require(rows.firstIndex { $0.hasPrefix(" 00:00:00  Me: shall we go") })
        #expect(rows[me + 1].hasPrefix(" 00:00:04  Them: yes the build"), "\(rows)")
        #expect(rows[me + 2].hasPrefix(" 00:00:09  for the last review"), "a wrapped line names no one: \(rows)")
        #expect(rows[me + 3].hasPrefix(" 00:00:12  Me: good then"), "\(rows)")
        #expect(screen[11, me].style.attributes.contains(.bold), "the name is bold")
        #expect(!screen[15, me].style.attributes.contains(.bold))
    }

    @Test func wordsWithoutSpeakersHaveNoNames() {
        let plain = Self.words.map { SpokenWord(word: $0.word, start: $0.start, end: $0.end) }
        #expect(TranscriptLayout.lines(plain, width: 80).allSatisfy { $0.speaker == nil })
        #expect(
            TranscriptLayout.lines(plain, width: 80).map(\.words) == [0..<7, 7..<21, 21..<33],
            "the pause and the width start lines (no name: one more word fits), not the speakers")
    }

    @Test func snapshotAt80x24() {
        assertSnapshot(AppView.render(Self.viewing()), named: "transcript-meeting-80x24")
        for (width, height) in [(30, 8), (1, 1)] {
            #expect(AppView.render(Self.viewing(width: width, height: height)).lines().count == height)
        }
    }
}
