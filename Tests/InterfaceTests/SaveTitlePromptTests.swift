import TestSupport
import Vocabulary
import Testing

@testable import Interface

/// `s` opens the title prompt at once, while the memo is saved on the runner (encoding the
/// backlog of a long MP3 takes minutes): the save's progress shows above the prompt, and a
/// title typed there goes to the runner with the memo's id, to be stored during the save.
@Suite struct SaveTitlePromptTests {
    static let memoID: Int64 = 42

    /// Recording "Memo 1" into memo 42, 11 s in.
    static func recording(width: Int = 80, height: Int = 24) -> AppState {
        var state = Fixtures.state(width: width, height: height)
        _ = reduce(&state, .key(.character("r")))
        _ = reduce(&state, .recordingStarted(title: "Memo 1", memoID: memoID))
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .recording, frames: 48000)))
        return state
    }

    /// After `s`, the save 2 s in and 40 % encoded.
    static func saving(width: Int = 80, height: Int = 24) -> AppState {
        var state = recording(width: width, height: height)
        #expect(reduce(&state, .key(.character("s"))) == [.stopRecording])
        _ = reduce(&state, .tick(time: state.now + 2, snapshot: Fixtures.levels(recording: .idle)))
        _ = reduce(&state, .workProgress(fraction: 0.4, stage: "encoding MP3"))
        return state
    }

    static func type(_ text: String, into state: inout AppState) {
        for character in text { _ = reduce(&state, .key(.character(character))) }
    }

    static func saved(title: String = "Memo 1") -> MemoRow {
        Fixtures.memo(memoID, title, minutesAgo: 0, seconds: 3600, size: 57_600_000)
    }

    @Test func stopOpensThePromptAtOnceWithTheSavesProgressAboveIt() {
        var state = Self.recording()
        #expect(reduce(&state, .key(.character("s"))) == [.stopRecording])
        #expect(state.mode == .renaming(id: Self.memoID, field: TextField("Memo 1", maximumLength: state.titleMaximumLength, selected: true)))
        #expect(state.work.map(\.kind) == [.saving(title: "Memo 1")])
        _ = reduce(&state, .tick(time: state.now + 2, snapshot: Fixtures.levels(recording: .idle)))
        _ = reduce(&state, .workProgress(fraction: 0.4, stage: "encoding MP3"))
        let lines = AppView.render(state).lines()
        let progress = lines.firstIndex { $0.contains("Saving “Memo 1”… encoding MP3, 40 %") }
        let prompt = lines.firstIndex { $0.contains("Title: Memo 1") }
        #expect(progress != nil && prompt != nil, "\(lines.joined(separator: "\n"))")
        if let progress, let prompt { #expect(prompt == progress + 1, "the progress is just above the prompt") }
        // The meter still moves under the prompt.
        _ = reduce(&state, .tick(time: state.now + 0.1, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.meters.first?.average == -18.2)
    }

    /// The prompt opens with the title selected, so typing replaces it; every key typed
    /// after `s`, however soon, is the title (a guard that dropped keys
    /// within 0.3 s of `s` lost the "Quick" of "Quick note").
    @Test func thePromptOpensSelectedAndTakesKeysTypedRightAfterTheStop() {
        var state = Self.recording()
        _ = reduce(&state, .key(.character("s")))
        Self.type("Quick", into: &state)
        guard case .renaming(_, let field) = state.mode else {
            Issue.record("the prompt is open: \(state.mode)")
            return
        }
        #expect(field.text == "Quick", "typed at once, replacing the selected title: \(field)")
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix(" Title: Quick") }, "\(lines)")
        Self.type(" note", into: &state)
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: Self.memoID, title: "Quick note")])
        #expect(state.status?.text == "Saving as “Quick note”. Press u to undo the title.", "the save goes on")
        _ = reduce(&state, .recordingSaved(Self.saved()))
        #expect(state.status?.text == "Saved “Quick note” (01:00:00).", "\(String(describing: state.status))")
    }

    /// The save ended before ⏎: the prompt `s` opened still says "Saved", with the title
    /// typed; `e`'s prompt says "Renamed".
    @Test func enterAfterTheSaveEndedSaysSavedUnderTheTitleTyped() {
        var state = Self.recording()
        _ = reduce(&state, .key(.character("s")))
        _ = reduce(&state, .recordingSaved(Self.saved()))
        _ = reduce(&state, .workFinished)
        Self.type("Standup notes", into: &state)
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: Self.memoID, title: "Standup notes")])
        #expect(state.status?.text == "Saved “Standup notes” (01:00:00). Press u to undo the title.")
        _ = reduce(&state, .key(.character("e")))
        Self.type("Later", into: &state)
        _ = reduce(&state, .key(.enter))
        #expect(state.status?.text == "Renamed to “Later”. Press u to undo.")
    }

    @Test func eOpensThePromptSelected() {
        var state = Fixtures.state(width: 80, height: 24, memos: [Fixtures.memo(3, "Third", minutesAgo: 1, seconds: 2, size: 100)])
        _ = reduce(&state, .key(.character("e")))
        Self.type("New", into: &state)
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: 3, title: "New")])
    }

    @Test func aTitleTypedDuringTheSaveGoesToTheRunnerAndStaysOnTheSavedMemo() {
        var state = Self.saving()
        for _ in 0..<6 { _ = reduce(&state, .key(.backspace)) }
        Self.type("Lecture", into: &state)
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: Self.memoID, title: "Lecture")])
        #expect(state.mode == .browsing)
        #expect(state.work.map(\.kind) == [.saving(title: "Lecture"), .renaming(title: "Lecture")])
        #expect(state.status?.text == "Saving as “Lecture”. Press u to undo the title.")
        // The runner finished the memo before it took the title: the reducer keeps the new one.
        _ = reduce(&state, .recordingSaved(Self.saved()))
        _ = reduce(&state, .workFinished)
        #expect(state.memos.first { $0.id == Self.memoID }?.title == "Lecture")
        #expect(state.mode == .browsing, "the prompt, closed already, does not come back")
        #expect(state.savingRecording == nil)
        #expect(state.selectedMemo?.id == Self.memoID)
    }

    @Test func undoDuringTheSaveGivesTheRecordedTitleBack() {
        var state = Self.saving()
        _ = reduce(&state, .key(.end))
        Self.type(" talk", into: &state)
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: Self.memoID, title: "Memo 1 talk")])
        #expect(reduce(&state, .key(.character("u"))) == [.renameMemo(id: Self.memoID, title: "Memo 1")])
        #expect(state.savingRecording?.title == "Memo 1")
        _ = reduce(&state, .recordingSaved(Self.saved()))
        #expect(state.memos.first { $0.id == Self.memoID }?.title == "Memo 1")
    }

    @Test func enterOrEscapeWithoutAChangeAsksNothingOfTheRunner() {
        var state = Self.saving()
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(state.work.map(\.kind) == [.saving(title: "Memo 1")])
        var escaped = Self.saving()
        Self.type("x", into: &escaped)
        #expect(reduce(&escaped, .key(.escape)) == [])
        _ = reduce(&escaped, .recordingSaved(Self.saved()))
        #expect(escaped.mode == .browsing)
        #expect(escaped.memos.first { $0.id == Self.memoID }?.title == "Memo 1")
    }

    @Test func anEmptyTitleDuringTheSaveIsRefusedAndTheRecordedOneKept() {
        var state = Self.saving()
        for _ in 0..<6 { _ = reduce(&state, .key(.backspace)) }
        Self.type("   ", into: &state)
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(state.promptProblem == "The title is only whitespace or invisible characters (such as U+200B); give at least one visible character: type one, or Esc keeps “Memo 1”.", "the library's title rule")
        #expect(state.savingRecording?.title == "Memo 1")
        guard case .renaming(Self.memoID, _) = state.mode else {
            Issue.record("the prompt stays open: \(state.mode)")
            return
        }
        let lines = AppView.render(state).lines()
        let problem = lines.firstIndex { $0.hasPrefix(" The title is only whitespace") }
        let prompt = lines.firstIndex { $0.hasPrefix(" Title: ") }
        #expect(problem != nil && prompt == problem.map { $0 + 1 }, "the reason is just above the prompt, over the save's progress: \(lines.joined(separator: "\n"))")
    }

    @Test func thePromptStaysOpenWhenTheSaveEndsAndItsEnterIsAnOrdinaryRename() {
        var state = Self.saving()
        _ = reduce(&state, .key(.end))
        Self.type("!", into: &state)
        _ = reduce(&state, .recordingSaved(Self.saved()))
        _ = reduce(&state, .workFinished)
        #expect(state.mode == .renaming(id: Self.memoID, field: {
            var field = TextField("Memo 1", maximumLength: state.titleMaximumLength)
            field.apply(.character("!"))
            return field
        }()))
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: Self.memoID, title: "Memo 1!")])
    }

    @Test func aFailedSaveLeavesTheTitleToBeGivenToTheMemoInTheIndex() {
        var state = Self.saving()
        _ = reduce(&state, .failed(.recordingNotAdded(path: "/x.mp3", stoppedBecause: nil, detail: "disk I/O error")))
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .key(.end))
        Self.type("?", into: &state)
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: Self.memoID, title: "Memo 1?")], "not lost")
    }

    @Test func qDuringTheSaveIsTypedIntoThePromptAndAfterItAsks() {
        var state = Self.saving()
        _ = reduce(&state, .key(.character("q")))
        #expect(state.mode == .renaming(id: Self.memoID, field: TextField("q", maximumLength: state.titleMaximumLength)), "q replaced the selected title")
        _ = reduce(&state, .key(.escape))
        #expect(reduce(&state, .key(.character("q"))) == [])
        #expect(state.mode == .confirmingQuit)
        #expect(reduce(&state, .key(.character("y"))) == [.quit])
    }

    @Test func onSmallTerminalsThePromptTakesTheOneStatusRow() {
        for (width, height) in [(30, 8), (80, 12), (1, 1), (0, 0)] {
            let state = Self.saving(width: width, height: height)
            let lines = AppView.render(state).lines()
            #expect(!lines.contains { $0.contains("Saving") && $0.contains("Title:") })
            if height >= 8 { #expect(lines.contains { $0.contains("Title: ") }, "\(width)×\(height): \(lines)") }
        }
    }
}

/// Opening an input that does not answer (a stopped sound server): the status line says
/// so after 2 s, and `q` quits without waiting for it.
@Suite struct StalledOpenTests {
    @Test func anOpenWithoutAnswerIsSaidOnTheStatusLine() {
        var state = AppState(width: 80, height: 24, now: Fixtures.now)
        _ = reduce(&state, .key(.character("i")))
        _ = reduce(&state, .inputsListed(InputChoiceList(choices: [InputChoice(source: .alsa(device: "pulse"), description: "PulseAudio")])))
        _ = reduce(&state, .workFinished)
        #expect(reduce(&state, .key(.enter)) == [.selectInput(source: .alsa(device: "pulse"))])
        _ = reduce(&state, .tick(time: Fixtures.now + 1, snapshot: nil))
        #expect(state.statusLine?.text == "Opening alsa:pulse… 1 s")
        _ = reduce(&state, .tick(time: Fixtures.now + StatusMessage.infoLifetime + 3, snapshot: nil))
        #expect(state.statusLine?.text == "Opening alsa:pulse… no answer for 7 s: is the audio server running?")
        // q does not wait for it, nor ask: nothing is half-done.
        #expect(reduce(&state, .key(.character("q"))) == [.quit])
        #expect(state.isQuitting)
    }

    @Test func qWhileTheLibraryOpensBehindAStalledInputStillAsks() {
        var state = AppState(width: 80, height: 24, now: Fixtures.now)
        _ = reduce(&state, .launched(input: .alsa(device: "pulse")))
        #expect(reduce(&state, .key(.character("q"))) == [])
        #expect(state.mode == .confirmingQuit)
        #expect(reduce(&state, .key(.character("y"))) == [.quit])
    }

    @Test func aSaveThatStopsOnAnErrorClosesItsPromptSoTheReasonShows() {
        var state = SaveTitlePromptTests.saving()
        SaveTitlePromptTests.type(" notes", into: &state)
        #expect(state.mode != .browsing, "the prompt is up, its title not sent")
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .recordingStoppedOnError(SaveTitlePromptTests.saved(), RecordingStop(deletedLibraryFolder: "/home/ana/memos")))
        #expect(state.mode == .browsing, "the prompt gives way to the reason")
        #expect(state.savingRecording == nil)
        #expect(state.statusLine?.text.hasPrefix("Recording stopped: the library folder /home/ana/memos was deleted while recording (it is made again). What was recorded is saved as") == true, "\(String(describing: state.statusLine))")
        #expect(state.memos.first { $0.id == SaveTitlePromptTests.memoID }?.title == "Memo 1", "a title never sent is not the memo's")
    }

    @Test func aSaveThatKeptNothingClosesItsPrompt() {
        var state = SaveTitlePromptTests.saving()
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .recordingDiscarded(.recordingFileGone(path: "/library/7.flac")))
        #expect(state.mode == .browsing, "no memo is left to name")
        #expect(state.savingRecording == nil)
        #expect(state.statusLine?.text == "The recording's file /library/7.flac is gone (deleted by another process): nothing was saved.")
    }
}
