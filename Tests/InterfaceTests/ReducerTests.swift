import TestSupport
import Vocabulary
import Testing

@testable import Interface

@Suite struct ReducerTests {
    @Test func recordPauseResumeStopFlow() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("r"))) == [.startRecording(title: "Memo 2026-11-29 14:05:10")])
        _ = reduce(&state, .recordingStarted(title: "Memo 2026-11-29 14:05"))
        _ = reduce(&state, .workFinished)
        #expect(state.recording == .recording)
        #expect(reduce(&state, .key(.character("r"))) == [.pauseRecording])
        #expect(state.recording == .paused)
        #expect(reduce(&state, .key(.character("r"))) == [.resumeRecording])
        #expect(reduce(&state, .key(.character("s"))) == [.stopRecording])
        let saved = Fixtures.memo(99, "Memo 2026-11-29 14:05", minutesAgo: 0, seconds: 2, size: 100)
        _ = reduce(&state, .recordingSaved(saved))
        #expect(state.mode == .renaming(id: 99, field: TextField("Memo 2026-11-29 14:05", maximumLength: state.titleMaximumLength, selected: true)))
        #expect(state.selectedMemo?.id == 99)
        state.now += 1
        _ = reduce(&state, .key(.end))
        for _ in 0..<5 { _ = reduce(&state, .key(.backspace)) }
        for character in "Chat" { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: 99, title: "Memo 2026-11-29 Chat")])
        #expect(state.memos.first { $0.id == 99 }?.title == "Memo 2026-11-29 Chat")
        #expect(reduce(&state, .key(.character("u"))) == [.undoRename(id: 99, title: "Memo 2026-11-29 14:05", replacing: "Memo 2026-11-29 Chat")])
        #expect(state.memos.first { $0.id == 99 }?.title == "Memo 2026-11-29 14:05")
    }

    /// The app's `u` put back the title it had replaced, over a rename
    /// another process made since. Now the reloaded table shows theirs, and `u` keeps it.
    @Test func undoKeepsATitleRenamedElsewhereSince() {
        var state = Fixtures.state(
            width: 80, height: 24, memos: [Fixtures.memo(3, "Third", minutesAgo: 1, seconds: 2, size: 100)])
        _ = reduce(&state, .key(.character("e")))
        _ = reduce(&state, .key(.end))
        _ = reduce(&state, .key(.character("X")))
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: 3, title: "ThirdX")])
        _ = reduce(&state, .workFinished)
        var outside = state.memos
        outside[0].title = "Third renamed outside"
        _ = reduce(&state, .libraryLoaded(memos: outside, deleted: []))
        #expect(state.memos.first?.title == "Third renamed outside", "the table shows the outside rename")
        #expect(reduce(&state, .key(.character("u"))) == [], "nothing is asked of the library")
        #expect(state.memos.first?.title == "Third renamed outside")
        #expect(state.status?.text == "“ThirdX” was renamed elsewhere since (now “Third renamed outside”); not undone.")
        #expect(state.status?.kind == .error)
        #expect(state.undoStack.isEmpty, "the entry is used up")
        #expect(state.work.isEmpty)
    }

    @Test func undoOfARenameWhenTheMemoWasDeletedElsewhere() {
        var state = Fixtures.state(
            width: 80, height: 24, memos: [Fixtures.memo(3, "Third", minutesAgo: 1, seconds: 2, size: 100)])
        _ = reduce(&state, .key(.character("e")))
        _ = reduce(&state, .key(.end))
        _ = reduce(&state, .key(.character("X")))
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .libraryLoaded(memos: [], deleted: []))
        #expect(reduce(&state, .key(.character("u"))) == [])
        #expect(state.status?.text == "“ThirdX” was deleted or purged elsewhere since; not undone.")
    }

    @Test func undoOfADeleteWhenTheMemoWasRestoredOrPurgedElsewhere() {
        let memo = Fixtures.memo(4, "Fourth", minutesAgo: 1, seconds: 2, size: 100)
        var state = Fixtures.state(width: 80, height: 24, memos: [memo])
        #expect(reduce(&state, .key(.character("d"))) == [.deleteMemo(id: 4)])
        // Another process restored it: the index has it back in the library.
        _ = reduce(&state, .libraryLoaded(memos: [memo], deleted: []))
        #expect(reduce(&state, .key(.character("u"))) == [], "no restore of a memo not in Recently Deleted")
        #expect(state.status?.text == "“Fourth” was restored or purged elsewhere since; not undone.")
        #expect(state.memos.map(\.id) == [4])
    }

    /// After `u` the memo it gave back is selected (the cursor stayed on the next
    /// row, so the next `e` renamed the wrong memo).
    @Test func undoSelectsTheMemoItGaveBack() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.character("d"))) == [.deleteMemo(id: 2)])
        _ = reduce(&state, .workFinished)
        #expect(state.selectedMemo?.id == 3, "the next row after the delete")
        #expect(reduce(&state, .key(.character("u"))) == [.restoreMemo(id: 2)])
        #expect(state.selectedMemo?.id == 2, "the restored memo")
        _ = reduce(&state, .workFinished)

        _ = reduce(&state, .key(.character("e")))
        for character in "Parser" { _ = reduce(&state, .key(.character(character))) }
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .key(.end))
        #expect(state.selectedMemo?.id == 4)
        #expect(reduce(&state, .key(.character("u"))) == [.undoRename(id: 2, title: "Idea for the parser", replacing: "Parser")])
        #expect(state.selectedMemo?.id == 2, "the memo whose title came back")
    }

    /// A recording that wrote nothing (a full disk) leaves no memo and says so.
    @Test func aRecordingDiscardedGoesIdleWithItsReasonAndNoPrompt() {
        var state = Fixtures.state(width: 80, height: 24)
        let count = state.memos.count
        _ = reduce(&state, .key(.character("r")))
        _ = reduce(&state, .recordingStarted(title: "Memo 2026-11-29 14:05"))
        _ = reduce(&state, .workFinished)
        let message = "Recording stopped: the disk is full; nothing was recorded, so no memo was kept."
        #expect(reduce(&state, .recordingDiscarded(.nothingRecorded(stoppedBecause: "the disk is full"))) == [])
        #expect(state.recording == .idle)
        #expect(state.recordingTitle == nil)
        #expect(state.mode == .browsing, "no title prompt for a memo that does not exist")
        #expect(state.memos.count == count)
        #expect(state.status == StatusMessage(text: message, kind: .error))
    }

    /// A reload keeps the selection on the same memo, wherever it now is in the table.
    @Test func aReloadKeepsTheSelectionOnTheSameMemo() {
        let memos = (1...5).map { Fixtures.memo(Int64($0), "Memo \($0)", minutesAgo: Double(10 - $0), seconds: 2, size: 100) }
        var state = Fixtures.state(width: 80, height: 24, memos: memos)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        let selected = state.selectedMemo?.id
        #expect(selected != nil)
        // Another process recorded a newer memo and deleted an older one.
        let newer = Fixtures.memo(6, "Memo 6", minutesAgo: 0, seconds: 2, size: 100)
        _ = reduce(&state, .libraryLoaded(memos: [newer] + memos.filter { $0.id != 1 }, deleted: []))
        #expect(state.selectedMemo?.id == selected, "still on memo \(String(describing: selected))")
    }

    /// The prompt held 200 characters, so ⏎ on a 500-character title saved it cut.
    @Test func theTitlePromptTakesTheLibrarysLimitAndAnUneditedEnterChangesNothing() {
        let long = String(repeating: "C", count: 500)
        var state = Fixtures.state(
            width: 80, height: 24, memos: [Fixtures.memo(6, long, minutesAgo: 1, seconds: 2, size: 100)])
        state.titleMaximumLength = 500
        _ = reduce(&state, .key(.character("e")))
        guard case .renaming(6, let field) = state.mode else {
            Issue.record("not renaming: \(state.mode)")
            return
        }
        #expect(field.text == long, "the whole title is in the prompt")
        #expect(reduce(&state, .key(.enter)) == [], "unedited: no rename")
        #expect(state.memos.first?.title == long)
        #expect(state.undoStack.isEmpty)
        #expect(state.status?.text.contains("Renamed") != true)

        _ = reduce(&state, .key(.character("e")))
        _ = reduce(&state, .key(.end))
        _ = reduce(&state, .key(.character("D")))
        #expect(reduce(&state, .key(.enter)) == [], "a 501st character is not taken")
        _ = reduce(&state, .key(.character("e")))
        _ = reduce(&state, .key(.end))
        _ = reduce(&state, .key(.backspace))
        _ = reduce(&state, .key(.character("D")))
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: 6, title: String(repeating: "C", count: 499) + "D")])
    }

    @Test func anUneditedEnterKeepsATitleWithSpacesAroundIt() {
        var state = Fixtures.state(
            width: 80, height: 24, memos: [Fixtures.memo(7, "  spaced  ", minutesAgo: 1, seconds: 2, size: 100)])
        _ = reduce(&state, .key(.character("e")))
        #expect(reduce(&state, .key(.enter)) == [], "not trimmed into a rename")
        #expect(state.memos.first?.title == "  spaced  ")
    }

    @Test func aTypedTitleFollowsTheLibrarysRule() {
        var state = Fixtures.state(width: 80, height: 24, memos: [Fixtures.memo(7, "Old", minutesAgo: 1, seconds: 2, size: 100)])
        _ = reduce(&state, .key(.character("e")))
        for _ in 0..<3 { _ = reduce(&state, .key(.backspace)) }
        for character in "  New \u{3000}" { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: 7, title: "New")], "trimmed as `rename` trims")
        _ = reduce(&state, .key(.character("e")))
        for _ in 0..<3 { _ = reduce(&state, .key(.backspace)) }
        for character in " \u{200B} " { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.enter)) == [], "an invisible title is refused")
        #expect(state.memos.first?.title == "New")
        #expect(state.promptProblem?.hasPrefix("The title is only whitespace or invisible characters") == true, "\(String(describing: state.promptProblem))")
        #expect(state.promptProblem?.hasSuffix(": type one, or Esc keeps “New”.") == true)
        guard case .renaming(7, _) = state.mode else {
            Issue.record("the prompt stays open for a title: \(state.mode)")
            return
        }
        let screen = AppView.render(state).lines()
        #expect(screen.contains { $0.hasPrefix(" The title is only whitespace") }, "the reason shows above the prompt: \(screen)")
        #expect(screen.contains { $0.hasPrefix(" Title: ") })
        for character in "Fixed" { _ = reduce(&state, .key(.character(character))) }
        #expect(state.promptProblem == nil, "typing clears the reason")
        _ = reduce(&state, .key(.home))
        for _ in 0..<3 { _ = reduce(&state, .key(.delete)) }
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: 7, title: "Fixed")])
        #expect(state.mode == .browsing)
    }

    @Test func aTitleLongerThanThePromptIsNotCutByAnUneditedEnter() {
        var state = Fixtures.state(
            width: 80, height: 24, memos: [Fixtures.memo(8, String(repeating: "x", count: 30), minutesAgo: 1, seconds: 2, size: 100)])
        state.titleMaximumLength = 20
        _ = reduce(&state, .key(.character("e")))
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(state.memos.first?.title.count == 30)
    }

    @Test func escapeInTheRenamePromptKeepsTheDefaultTitle() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .recordingSaved(Fixtures.memo(99, "Default", minutesAgo: 0, seconds: 2, size: 100)))
        _ = reduce(&state, .key(.character("x")))
        #expect(reduce(&state, .key(.escape)) == [])
        #expect(state.mode == .browsing)
        #expect(state.memos.first { $0.id == 99 }?.title == "Default")
    }

    /// A recording that a full disk stopped is saved, selected and explained: no title prompt
    /// hides the cause.
    @Test func aRecordingStoppedOnAnErrorKeepsItsCauseOnTheStatusLine() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .recordingStarted(title: "Full"))
        let saved = Fixtures.memo(99, "Full", minutesAgo: 0, seconds: 3, size: 100)
        _ = reduce(&state, .recordingStoppedOnError(saved, RecordingStop(error: "the disk is full")))
        #expect(state.mode == .browsing)
        #expect(state.recording == .idle)
        #expect(state.selectedMemo?.id == 99)
        #expect(state.status?.kind == .error)
        #expect(state.status?.text.hasPrefix("Recording stopped: the disk is full. What was recorded is saved as “Full” (00:00:03)") == true, "\(String(describing: state.status))")
    }

    /// Both causes at once (a full disk in a library folder deleted under the recording) are
    /// said in one line; with neither, the recording is just saved.
    @Test func aRecordingStopSaysEachOfItsCauses() {
        #expect(RecordingStop().isEmpty)
        #expect(!RecordingStop(deletedLibraryFolder: "/m").isEmpty)
        #expect(
            RecordingStop(error: "the disk is full", deletedLibraryFolder: "/home/ana/memos").reason
                == "the disk is full; the library folder /home/ana/memos was deleted while recording (it is made again)")
        #expect(RecordingStop(error: "x.flac: input/output error").reason == "x.flac: input/output error")
    }

    @Test func deleteIsAtOnceThenUndoRestores() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("d"))) == [.deleteMemo(id: 1)])
        #expect(state.mode == .browsing)
        #expect(state.memos.count == 3)
        // Both lists show the change before the runner has made it (it may be busy).
        #expect(state.deletedMemos.map(\.id) == [1])
        #expect(reduce(&state, .key(.character("u"))) == [.restoreMemo(id: 1)])
        #expect(state.memos.map(\.id) == [1, 2, 3, 4])
        #expect(state.deletedMemos.isEmpty)
    }

    @Test func quitAsksWhileRecordingAndStoppingSaves() {
        var state = Fixtures.state(width: 80, height: 24, [.tick(time: Fixtures.now + 20, snapshot: Fixtures.levels(recording: .recording))])
        #expect(reduce(&state, .key(.character("q"))) == [])
        #expect(state.mode == .confirmingQuit)
        #expect(reduce(&state, .key(.character("y"))) == [.stopRecording, .quit])
        var idle = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&idle, .key(.character("q"))) == [.quit])
    }

    @Test func filterNarrowsTheTableAndEscapeClearsIt() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("/")))
        for character in "IDEA" { _ = reduce(&state, .key(.character(character))) }
        #expect(state.visibleMemos.map(\.id) == [2])
        _ = reduce(&state, .key(.enter))
        #expect(state.mode == .browsing)
        #expect(state.filter == "IDEA")
        _ = reduce(&state, .key(.escape))
        #expect(state.visibleMemos.count == 4)
    }

    @Test func navigationKeysStayInRangeAndScroll() {
        let many = (0..<50).map { Fixtures.memo(Int64($0), "Memo \($0)", minutesAgo: Double($0), seconds: 1, size: 1) }
        var state = Fixtures.state(width: 80, height: 24, memos: many)
        _ = reduce(&state, .key(.end))
        #expect(state.selection == 49)
        #expect(state.scrollOffset == 50 - state.layout.tableRows)
        _ = reduce(&state, .key(.pageUp))
        #expect(state.selection == 49 - state.layout.tableRows)
        _ = reduce(&state, .key(.home))
        #expect(state.selection == 0 && state.scrollOffset == 0)
        _ = reduce(&state, .key(.up))
        #expect(state.selection == 0)
    }

    /// CLIP follows the engine's clip count (`ClipRule`), not a peak at 0 dBFS: a single
    /// full-scale sample (peak 0 dB, no clip counted) leaves it out; a counted clip lights it.
    @Test func clipLatchesOnTheEnginesCountAndCResetsIt() {
        var state = Fixtures.state(width: 80, height: 24)
        let loudPeak = EngineSnapshot(channels: [ChannelLevel(average: -3, peak: 0), ChannelLevel(average: -3, peak: -1)])
        _ = reduce(&state, .tick(time: Fixtures.now + 19, snapshot: loudPeak))
        #expect(!state.clipLatch.isLatched)
        var clipped = loudPeak
        clipped.clipCount = 1
        _ = reduce(&state, .tick(time: Fixtures.now + 20, snapshot: clipped))
        var after = Fixtures.levels(recording: .idle)
        after.clipCount = 1
        _ = reduce(&state, .tick(time: Fixtures.now + 21, snapshot: after))
        #expect(state.clipLatch.isLatched)
        #expect(AppView.render(state).lines()[1].contains("CLIP"))
        _ = reduce(&state, .key(.character("c")))
        #expect(!state.clipLatch.isLatched)
        _ = reduce(&state, .tick(time: Fixtures.now + 22, snapshot: after))
        #expect(!state.clipLatch.isLatched, "the clip before c is not new")
    }

    @Test func peakHoldsThenDecays() {
        var state = Fixtures.state(width: 80, height: 24)
        let loud = EngineSnapshot(channels: [ChannelLevel(average: -10, peak: -2), ChannelLevel(average: -10, peak: -2)])
        let quiet = EngineSnapshot(channels: [ChannelLevel(average: -40, peak: -40), ChannelLevel(average: -40, peak: -40)])
        _ = reduce(&state, .tick(time: 100, snapshot: loud))
        _ = reduce(&state, .tick(time: 100.9, snapshot: quiet))
        #expect(state.meters[0].heldPeak == -2, "held for 1 s")
        _ = reduce(&state, .tick(time: 101.85, snapshot: quiet))
        #expect(abs(state.meters[0].heldPeak - -12) < 0.01, "then falls 20 dB in 1.7 s")
    }

    @Test func noInputSaysHowToGetOne() {
        var state = Fixtures.state(width: 80, height: 24, input: nil)
        #expect(reduce(&state, .key(.character("r"))) == [])
        #expect(state.status?.text.contains("Press i") == true)
        #expect(reduce(&state, .key(.character("i"))) == [.listInputs])
        _ = reduce(&state, .inputsListed(InputChoiceList(choices: [InputChoice(source: .tone(frequency: 440, peakDBFS: -12), description: "tone")])))
        #expect(reduce(&state, .key(.enter)) == [.selectInput(source: .tone(frequency: 440, peakDBFS: -12))])
    }

    @Test func textFieldEditsByGraphemeCluster() {
        var field = TextField("ab")
        field.apply(.left)
        field.apply(.character("👍🏽"))
        field.apply(.character("e\u{301}"))
        #expect(field.text == "a👍🏽e\u{301}b")
        field.apply(.backspace)
        #expect(field.text == "a👍🏽b")
        field.apply(.home)
        field.apply(.delete)
        #expect(field.text == "👍🏽b")
        field.apply(.end)
        field.apply(.clearToStart)
        #expect(field.text.isEmpty)
    }

    @Test func aSelectedTextFieldIsReplacedClearedOrLeftByTheKeys() {
        func selected() -> TextField { TextField("Memo 1", selected: true) }
        var typed = selected()
        typed.apply(.character("N"))
        #expect(typed.text == "N" && !typed.isSelected)
        for key in [Key.backspace, .delete, .clearToStart] {
            var cleared = selected()
            cleared.apply(key)
            #expect(cleared.text.isEmpty && !cleared.isSelected, "\(key)")
        }
        for (key, cursor) in [(Key.left, 0), (.home, 0), (.right, 6), (.end, 6)] {
            var moved = selected()
            moved.apply(key)
            #expect(moved.text == "Memo 1" && moved.cursor == cursor && !moved.isSelected, "\(key)")
        }
        var control = selected()
        control.apply(.character("\u{7}"))
        #expect(control.text == "Memo 1" && control.isSelected, "a control character is not typed; the selection stays")
        var other = selected()
        let applied = other.apply(.up)
        #expect(!applied && other.isSelected, "a key that is not an edit leaves it alone")
        #expect(!TextField("", selected: true).isSelected, "nothing to select")
    }

    @Test func civilTimeMatchesKnownDates() {
        let time = CivilTime(seconds: 1_795_961_040, utcOffset: 0)
        #expect(time.dateText == "2026-11-29" && time.timeText == "14:04")
        #expect(CivilTime(seconds: 0, utcOffset: -3600).dateText == "1969-12-31")
        #expect(CivilTime(seconds: 951_782_400, utcOffset: 0).dateText == "2000-02-29")
        #expect(CivilTime(seconds: 86400 * 3, utcOffset: 0).dayNumber == 3)
    }
}
