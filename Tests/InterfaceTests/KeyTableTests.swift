import TestSupport
import Testing

@testable import Interface

/// The screens' key tables: the one place a key of a screen is declared, read by the handler,
/// the help screen and the footer.
@Suite struct KeyTableTests {
    @Test(arguments: KeyScreen.allCases)
    func noKeyIsClaimedByTwoRows(_ screen: KeyScreen) {
        var rows: [Key: [String]] = [:]
        for binding in screen.rows {
            #expect(!binding.keys.isEmpty, "\(binding.label) has keys")
            for key in binding.keys { rows[key, default: []].append(binding.label) }
        }
        let claimedTwice = rows.filter { $0.value.count > 1 }
        #expect(claimedTwice.isEmpty, "keys in two rows: \(claimedTwice)")
    }

    @Test func theHelpScreenListsEveryRowInTheTablesOrder() {
        #expect(KeyHelp.all.map(\.0) == KeyTable.memoTable.map(\.label))
        #expect(KeyHelp.all.allSatisfy { !$0.0.isEmpty && !$0.1.isEmpty })
    }

    @Test(arguments: FooterSpot.Situation.allCases)
    func aFooterRankIsUsedOnceInEachSituation(_ situation: FooterSpot.Situation) {
        let ranks = KeyTable.memoTable.flatMap { $0.footer.filter { $0.situations.contains(situation) }.map(\.rank) }
        #expect(Set(ranks).count == ranks.count, "\(situation): \(ranks.sorted())")
        #expect(KeyTable.footer(in: situation).last?.0 == "q", "quit comes last, after help")
    }

    /// The footers' order is their importance: what a narrow terminal shows first.
    @Test func theFootersShowTheMostImportantKeysFirst() {
        func keys(_ situation: FooterSpot.Situation) -> [String] { KeyTable.footer(in: situation).map(\.0) }
        #expect(
            keys(.idle) == [
                "r", "⏎", "v", "e", "d", "/", "t", "u", "T", "i", "E", "*", "#", "O", "o", "m", "V", "< >", "M", "c", "I",
                "a", "?", "q",
            ], "no s stop on the idle table: nothing to stop")
        var recording = ["r", "s", "b"] + keys(.idle).dropFirst(1)
        recording.insert("C", at: recording.firstIndex(of: "c")! + 1)
        #expect(keys(.recording) == recording, "live captions only while recording, after clear clip")
        #expect(
            keys(.playing) == [
                "space", "← →", "s", "( ) X", "S", "[ ]", "- +", "{ }", "x", "b", "n N", "B", "P", "0-9", ", .", "H L",
                "Home End", "Z", "f", "⏎", "r", "?", "q",
            ])
        #expect(keys(.paused) == keys(.playing))
        #expect(KeyTable.footer(in: .playing).first?.1 == "pause" && KeyTable.footer(in: .paused).first?.1 == "resume")
        #expect(keys(.streaming) == ["s", "R", "o", "⏎", "r", "m", "?", "q"])
    }

    @Test func theFooterFollowsWhatTheTableIsDoing() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(FooterSpot.Situation(state) == .idle)
        state.recording = .recording
        #expect(FooterSpot.Situation(state) == .recording)
        state.stream = StreamState(url: "http://127.0.0.1:8000/live")
        #expect(FooterSpot.Situation(state) == .recording, "a stream while recording: the recording's keys")
        state.recording = .idle
        #expect(FooterSpot.Situation(state) == .streaming)
        state.playback = PlaybackState(memoID: 1, title: "Standup notes", duration: 131, channels: 2)
        #expect(FooterSpot.Situation(state) == .playing)
        state.playback?.isPaused = true
        #expect(FooterSpot.Situation(state) == .paused)
        #expect(KeyHelp.footer(for: state).first?.1 == "resume")
    }

    /// A key of the table is never "does nothing here"; any other printable key is.
    @Test func onlyKeysOutsideTheTableSayTheyDoNothing() {
        let characters = KeyTable.memoTable.flatMap(\.keys).compactMap { key -> Character? in
            if case .character(let character) = key { character } else { nil }
        }
        for character in characters where character != "q" {
            var state = Fixtures.state(width: 80, height: 24)
            _ = reduce(&state, .key(.character(character)))
            #expect(state.status?.text.contains("does nothing here") != true, "\(character): \(state.status?.text ?? "")")
        }
        // The printable ASCII keys the memo table leaves free, derived from the table: a new
        // binding takes its key off this list without anyone retyping it.
        let bound = Set(characters)
        let free = (0x21...0x7E).compactMap { Unicode.Scalar($0).map(Character.init) }.filter { character in
            !bound.contains(character) && KeyScreen.memoTable.binding(for: .character(character)) == nil
        }
        #expect(!free.isEmpty, "the memo table leaves no printable key free")
        for character in free {
            var state = Fixtures.state(width: 80, height: 24)
            _ = reduce(&state, .key(.character(character)))
            #expect(state.status?.text == "“\(character)” does nothing here. Press ? for the keys.")
        }
    }

    /// `?` on Recently Deleted, the transcript and the settings panel lists that screen's keys,
    /// and closing help goes back to it.
    @Test func eachScreenHasItsOwnHelp() {
        var state = Fixtures.state(width: 80, height: 24, [.key(.character("t"))])
        #expect(state.mode == .recentlyDeleted)
        #expect(KeyHelp.footer(for: state).map(\.0) == ["⏎", "p", "↑↓", "Esc q", "?"])
        _ = reduce(&state, .key(.character("?")))
        #expect(state.mode == .help && state.helpScreen == .recentlyDeleted)
        var text = AppView.render(state).lines().joined(separator: "\n")
        #expect(text.contains("Keys of Recently Deleted") && text.contains("purge the selected memo for good"), "\(text)")
        #expect(!text.contains("record; again"), "not the memo table's keys")
        _ = reduce(&state, .key(.escape))
        #expect(state.mode == .recentlyDeleted, "back where ? was pressed")

        state = Fixtures.state(width: 80, height: 24, [.key(.character("V"))])
        guard case .voiceSettings(let field) = state.mode else {
            Issue.record("V opens the settings")
            return
        }
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.character("?")))
        text = AppView.render(state).lines().joined(separator: "\n")
        #expect(text.contains("Keys of the settings panel") && text.contains("change it ten steps"), "\(text)")
        _ = reduce(&state, .key(.character("x")))
        #expect(state.mode == .voiceSettings(SettingsField.allCases[field.index + 1]), "back on the row chosen")

        state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("?")))
        #expect(state.helpScreen == .memoTable)
        text = AppView.render(state).lines().joined(separator: "\n")
        #expect(text.contains(" Keys ") && text.contains("record; again"))
        _ = reduce(&state, .key(.escape))
        #expect(state.mode == .browsing)
    }

    /// `⏎ play` and `? help` show on the memo table's footer down to 30 columns, `v voice` down to 40.
    @Test(arguments: [(30, 8, false), (40, 12, true), (80, 24, true)])
    func theFooterKeepsPlayVoiceAndHelpOnNarrowTerminals(width: Int, height: Int, showsVoice: Bool) {
        let footer = AppView.render(Fixtures.state(width: width, height: height)).lines().last ?? ""
        #expect(footer.contains("⏎ play") && footer.contains("? help"), "\(footer)")
        #expect(footer.contains("v voice") == showsVoice, "\(footer)")
        #expect(footer.contains(width < KeyTable.narrowFooterWidth ? "r rec " : "r record/pause"), "\(footer)")
    }

    /// At 80 columns the idle table's footer names `/` (find) and `t` (Recently Deleted): a new
    /// user found neither.
    @Test func eightyColumnsShowFindAndRecentlyDeleted() {
        let footer = AppView.render(Fixtures.state(width: 80, height: 24)).lines().last ?? ""
        #expect(footer.contains("/ find") && footer.contains("t deleted") && footer.contains("? help"), "\(footer)")
        #expect(!footer.contains("s stop"), "nothing to stop: \(footer)")
    }

    /// In Recently Deleted ⏎ restores; `r`, which records everywhere else, restores nothing and says where it records.
    @Test func recentlyDeletedRestoresOnEnterNotOnR() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .libraryLoaded(memos: Array(Fixtures.memos.dropFirst()), deleted: [Fixtures.memos[0]]))
        _ = reduce(&state, .key(.character("t")))
        #expect(reduce(&state, .key(.character("r"))) == [])
        #expect(state.deletedMemos.count == 1 && state.mode == .recentlyDeleted)
        #expect(state.status?.text.hasPrefix("r records on the memo table") == true)
        #expect(reduce(&state, .key(.enter)) == [.restoreMemo(id: 1)])
        #expect(state.deletedMemos.isEmpty)
    }
}
