import TestSupport
import Testing

@testable import Interface

/// What a person meets in the first hour: the progress line names the memo as it is titled
/// now, `d` deletes at once (undo and Recently Deleted are there), an empty table says how to
/// get memos back, and the transcript view's keys agree with the other screens'.
@Suite struct FirstHourTests {
    // MARK: The transcription's progress names the current title

    @Test func theProgressNamesTheTitleGivenAtTheSave() {
        var state = SaveTitlePromptTests.recording()
        state.transcription.isEnabled = true
        _ = reduce(&state, .key(.character("s")))
        SaveTitlePromptTests.type("Garden idea", into: &state)
        _ = reduce(&state, .key(.enter))
        // The job read the memo before the title reached the index.
        _ = reduce(&state, .recordingSaved(SaveTitlePromptTests.saved()))
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .transcription(.started(memoID: SaveTitlePromptTests.memoID, title: "Memo 1", waiting: 0)))
        _ = reduce(&state, .transcription(.progress(memoID: SaveTitlePromptTests.memoID, fraction: 0.91)))
        #expect(state.transcriptionLine == "Transcribing “Garden idea” 91 %")
        _ = reduce(&state, .tick(time: state.now + StatusMessage.infoLifetime + 1, snapshot: Fixtures.levels(recording: .idle)))
        _ = reduce(&state, .transcription(.finished(memoID: SaveTitlePromptTests.memoID, title: "Memo 1", words: 4)))
        #expect(state.status?.text == "Transcribed “Garden idea”: 4 words.")
    }

    @Test func theProgressFollowsARenameWhileItRuns() {
        var state = Fixtures.state(width: 80, height: 24)
        state.transcription.isEnabled = true
        _ = reduce(&state, .transcription(.started(memoID: 1, title: "Standup notes", waiting: 1)))
        _ = reduce(&state, .transcription(.progress(memoID: 1, fraction: 0.5)))
        _ = reduce(&state, .key(.character("e")))
        SaveTitlePromptTests.type("Monday standup", into: &state)
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: 1, title: "Monday standup")])
        #expect(state.transcriptionLine == "Transcribing “Monday standup” 50 % · 1 more")
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("Transcribing “Monday standup” 50 %") }, "\(lines.joined(separator: "\n"))")
    }

    // MARK: d deletes at once

    @Test func dDeletesAtOnceAndSaysUndoesIt() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("d"))) == [.deleteMemo(id: 1)])
        #expect(state.mode == .browsing)
        #expect(state.memos.map(\.id) == [2, 3, 4])
        #expect(state.deletedMemos.map(\.id) == [1])
        #expect(state.status?.text == "Moved “Standup notes” to Recently Deleted. Press u to undo.")
        #expect(reduce(&state, .key(.delete)) == [.deleteMemo(id: 2)])
        #expect(reduce(&state, .key(.character("u"))) == [.restoreMemo(id: 2)])
        #expect(state.selectedMemo?.id == 2)
        #expect(reduce(&state, .key(.character("u"))) == [.restoreMemo(id: 1)])
        #expect(state.memos.map(\.id) == [1, 2, 3, 4])
    }

    @Test func dWhilePlayingStopsThePlaybackOfTheMemoItDeletes() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 131, channels: 2))
        #expect(reduce(&state, .key(.character("d"))) == [.stopPlayback, .deleteMemo(id: 1)])
    }

    @Test func purgeStillAsksAndSaysWhenNotPurged() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("d")))
        _ = reduce(&state, .key(.character("t")))
        #expect(reduce(&state, .key(.character("p"))) == [])
        #expect(state.mode == .confirmingPurge(id: 1))
        #expect(reduce(&state, .key(.character("u"))) == [])
        #expect(state.mode == .recentlyDeleted)
        #expect(state.deletedMemos.map(\.id) == [1])
        #expect(state.status?.text == "Not purged: “Standup notes” stays in Recently Deleted.")
        _ = reduce(&state, .key(.character("p")))
        #expect(reduce(&state, .key(.character("y"))) == [.purgeMemo(id: 1)])
    }

    @Test func theEmptyTableSaysHowToGetMemosBack() {
        var state = Fixtures.state(width: 80, height: 24, memos: [Fixtures.memos[0]])
        _ = reduce(&state, .key(.character("d")))
        let lines = AppView.render(state).lines()
        #expect(
            lines.contains { $0.contains("No memos. Press u to undo the delete, t for Recently Deleted, r to record.") },
            "\(lines.joined(separator: "\n"))")
        // Nothing to undo, but a memo in Recently Deleted.
        var deleted = Fixtures.memos[0]
        deleted.deletedAt = Fixtures.now
        let restorable = Fixtures.state(width: 80, height: 24, memos: [], [.libraryLoaded(memos: [], deleted: [deleted])])
        #expect(MemoTableView.emptyMessage(restorable) == "No memos. Press t for Recently Deleted (1 memo there), r to record.")
        // Neither: a first start.
        let first = Fixtures.state(width: 80, height: 24, memos: [])
        #expect(MemoTableView.emptyMessage(first) == "No memos yet. Press r to record your first one.")
        // The keys named are the table's.
        #expect(KeyScreen.memoTable.binding(for: .character("u"))?.help.hasPrefix("undo") == true)
        #expect(KeyScreen.memoTable.binding(for: .character("t"))?.help.hasPrefix("Recently Deleted") == true)
    }

    // MARK: The transcript view's keys

    @Test func qInTheTranscriptGoesBackAsInRecentlyDeleted() {
        var state = TranscriptViewTests.viewing()
        #expect(reduce(&state, .key(.character("q"))).isEmpty)
        #expect(state.mode == .browsing && state.transcriptView == nil && !state.isQuitting)
        #expect(KeyScreen.transcript.binding(for: .character("q")) != nil)
        #expect(KeyScreen.recentlyDeleted.binding(for: .character("q")) != nil)
    }

    @Test func slashInTheTranscriptFindsMemosByTheirWords() {
        var state = TranscriptViewTests.viewing()
        #expect(reduce(&state, .key(.character("/"))).isEmpty)
        #expect(state.mode == .filtering(TextField("")))
        #expect(state.transcriptView == nil)
        #expect(KeyHelp.footer(for: TranscriptViewTests.viewing()).contains { $0.0 == "/" })
    }

    /// Every screen with keys of its own answers a key it does not take, as the memo table does.
    @Test(arguments: [KeyScreen.recentlyDeleted, .transcript, .voiceSettings])
    func aKeyAScreenDoesNotTakeSaysSo(_ screen: KeyScreen) {
        var state = TranscriptViewTests.viewing()
        switch screen {
        case .recentlyDeleted: state.mode = .recentlyDeleted
        case .voiceSettings: state.mode = .voiceSettings(.voice(.threshold))
        default: break
        }
        #expect(screen.binding(for: .character("z")) == nil)
        _ = reduce(&state, .key(.character("z")))
        #expect(state.status?.text == "“z” does nothing here. Press ? for the keys.")
        #expect(KeyScreen(state.mode) == screen, "the screen stays")
    }

    /// Every key a screen takes is on its help screen; the ways back are on its footer.
    @Test(arguments: [KeyScreen.recentlyDeleted, .transcript, .voiceSettings])
    func theWayBackIsOnTheFooterAndEveryKeyOnTheHelp(_ screen: KeyScreen) {
        let footer = screen.footer.map(\.0).joined(separator: " ")
        #expect(footer.contains("Esc") && footer.contains("?"), "\(footer)")
        let helped = screen.helpEntries.map(\.0).joined(separator: " ")
        for binding in screen.rows { #expect(helped.contains(binding.label)) }
        #expect(screen.binding(for: .character("q")) != nil, "q goes back on \(screen)")
    }
}

@Suite struct PlaybackSettingsCarryOverTests {
    @Test func aMemoPlayedWithSettingsKeptFromTheLastOneSaysSo() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "First", duration: 10, channels: 2))
        #expect(state.status?.text == "Playing “First”. Space pauses, ← → seek 5 s, s stops.")
        _ = reduce(&state, .key(.character("f")))
        _ = reduce(&state, .key(.character("]")))
        _ = reduce(&state, .playbackStarted(memoID: 2, title: "Second", duration: 10, channels: 2))
        #expect(state.status?.text == "Playing “Second” (enhanced, 1.1×). Space pauses, ← → seek 5 s, s stops.")
        #expect(PlaybackSettings().summary == nil)
        #expect(PlaybackSettings(pitchSemitones: -3, volumePercent: 120, skipsSilence: true).summary == "−3 st, vol 120 %, skipping silence")
    }
}
