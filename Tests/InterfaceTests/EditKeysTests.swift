import TestSupport
import Metering
import Testing

@testable import Interface

/// Trim, split and silence removal in the reducer (`EditKeys`): `(` `)` `X` `S` `Z`, the y/N
/// prompt, `u`, and every refusal; the waveform band's place in the layout.
@Suite struct EditKeysTests {
    /// "Standup notes" (memo 1, 131 s) playing, `elapsed` seconds in.
    func playing(elapsed: Double = 10) -> AppState {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 131, channels: 2))
        move(&state, to: elapsed)
        return state
    }

    func move(_ state: inout AppState, to elapsed: Double) {
        _ = reduce(&state, .playbackProgress(time: state.now, PlaybackSnapshot(elapsed: elapsed, channels: [])))
    }

    @Test func inAndOutAtThePlayHeadThenXAsksAndYTrimsOnTheRunner() {
        var state = playing(elapsed: 10)
        #expect(reduce(&state, .key(.character("("))) == [])
        #expect(state.editPoints == EditPoints(memoID: 1, inPoint: 10))
        move(&state, to: 40.5)
        #expect(reduce(&state, .key(.character(")"))) == [])
        #expect(state.editPoints == EditPoints(memoID: 1, inPoint: 10, outPoint: 40.5))
        #expect(state.status?.text == "Out point at 40.5 s. X keeps 10 s … 40.5 s.")
        #expect(reduce(&state, .key(.character("X"))) == [])
        let request = EditRequest.trim(memoID: 1, title: "Standup notes", start: 10, end: 40.5)
        #expect(state.mode == .confirmingEdit(request))
        let question = AppView.render(state).lines()[state.layout.status?.y ?? 0]
        #expect(question.contains("Trim “Standup notes” to 10 s … 40.5 s?"))
        #expect(reduce(&state, .key(.character("y"))) == [.stopPlayback, .editMemo(request)])
        #expect(state.mode == .browsing)
        #expect(state.playback == nil, "the original's file moves: it stops playing")
        #expect(state.editPoints == nil)
        #expect(state.work.map(\.kind) == [.editing(request)])
        _ = reduce(&state, .workProgress(fraction: 0.4, stage: "trimming"))
        _ = reduce(&state, .tick(time: state.now + 1, snapshot: nil))
        #expect(state.statusLine?.text == "Trimming “Standup notes”… trimming, 40 %")
    }

    @Test func anUnsetPointIsTheStartOrTheEnd() {
        var state = playing(elapsed: 100)
        _ = reduce(&state, .key(.character("(")))
        _ = reduce(&state, .key(.character("X")))
        #expect(state.mode == .confirmingEdit(.trim(memoID: 1, title: "Standup notes", start: 100, end: 131)))
        _ = reduce(&state, .key(.character("n")))
        #expect(state.mode == .browsing)
        #expect(state.status?.text == "Not changed.")
        #expect(state.editPoints == EditPoints(memoID: 1, inPoint: 100), "kept: X asks again")
    }

    @Test func xWithNoPointSetIsRefused() {
        var state = playing()
        #expect(reduce(&state, .key(.character("X"))) == [])
        #expect(state.mode == .browsing)
        #expect(state.status?.text.hasPrefix("No in or out point: while a memo plays, ( sets the in point") == true)
        var idle = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&idle, .key(.character("X"))) == [])
        #expect(idle.status?.text.hasPrefix("No in or out point") == true)
    }

    @Test func inAtOrAfterOutIsRefused() {
        var state = playing(elapsed: 40)
        _ = reduce(&state, .key(.character("(")))
        move(&state, to: 20)
        _ = reduce(&state, .key(.character(")")))
        #expect(state.status?.text == "Out point at 20 s: in is not before out, so X would keep nothing; set them again.")
        #expect(reduce(&state, .key(.character("X"))) == [])
        #expect(state.mode == .browsing)
        #expect(state.status?.text.hasPrefix("The in point (40 s) is not before the out point (20 s): nothing would be kept.") == true)
        move(&state, to: 40)
        _ = reduce(&state, .key(.character(")")))
        #expect(reduce(&state, .key(.character("X"))) == [], "in = out keeps nothing either")
        #expect(state.mode == .browsing)
    }

    @Test func theWholeMemoIsNothingToTrim() {
        var state = playing(elapsed: 0)
        _ = reduce(&state, .key(.character("(")))
        move(&state, to: 131)
        _ = reduce(&state, .key(.character(")")))
        #expect(reduce(&state, .key(.character("X"))) == [])
        #expect(state.status?.text == "In and out cover the whole memo: nothing to trim. Set ( or ) inside it.")
    }

    @Test func noPlayHeadRefusesInOutAndSplit() {
        var state = Fixtures.state(width: 80, height: 24)
        for key in ["(", ")"] {
            #expect(reduce(&state, .key(.character(Character(key)))) == [])
            #expect(state.status?.text.hasPrefix("( and ) set the in and out points at the play head: play a memo first") == true)
        }
        #expect(state.editPoints == nil)
        #expect(reduce(&state, .key(.character("S"))) == [])
        #expect(state.status?.text == "S splits the memo that plays at the play head: play it first (⏎).")
        #expect(state.mode == .browsing)
    }

    @Test func aMemoBeingRecordedIsNotTrimmedOrSplit() {
        var recording = Fixtures.memo(5, "Live", minutesAgo: 0, seconds: 60, size: 1)
        recording.state = .recording
        var state = Fixtures.state(width: 80, height: 24, memos: [recording] + Fixtures.memos)
        _ = reduce(&state, .playbackStarted(memoID: 5, title: "Live", duration: 60, channels: 2))
        move(&state, to: 30)
        _ = reduce(&state, .key(.character("(")))
        #expect(reduce(&state, .key(.character("X"))) == [])
        #expect(state.status?.text == "“Live” is being recorded; it can be trimmed once the recording stops.")
        #expect(reduce(&state, .key(.character("S"))) == [])
        #expect(state.status?.text == "“Live” is being recorded; it can be split once the recording stops.")
        #expect(state.mode == .browsing)
        // The app's own recording, once saved and listed, while its save still runs.
        state = playing(elapsed: 30)
        _ = reduce(&state, .recordingStarted(title: "Memo", memoID: 1))
        _ = reduce(&state, .key(.character("(")))
        #expect(reduce(&state, .key(.character("X"))) == [])
        #expect(state.status?.text == "“Standup notes” is being recorded; it can be trimmed once the recording stops.")
    }

    @Test func splitAtThePlayHeadAsksFirst() {
        var state = playing(elapsed: 65.5)
        #expect(reduce(&state, .key(.character("S"))) == [])
        let request = EditRequest.split(memoID: 1, title: "Standup notes", at: 65.5)
        #expect(state.mode == .confirmingEdit(request))
        #expect(KeyHelp.footer(for: state).map(\.0) == ["y", "n"])
        #expect(reduce(&state, .key(.character("Y"))) == [.stopPlayback, .editMemo(request)])
        #expect(state.work.map(\.kind) == [.editing(request)])
        var atStart = playing(elapsed: 0)
        #expect(reduce(&atStart, .key(.character("S"))) == [])
        #expect(atStart.status?.text.hasPrefix("The play head is at an end of “Standup notes”: nothing to split off.") == true)
    }

    @Test func capitalFEnhancesThePlayingOrTheSelectedMemoAfterAsking() {
        var state = playing(elapsed: 12)
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.character("F"))) == [])
        let request = EditRequest.enhance(memoID: 1, title: "Standup notes")
        #expect(state.mode == .confirmingEdit(request))
        let question = AppView.render(state).lines()[state.layout.status?.y ?? 0]
        #expect(question.contains("Make “Standup notes” with its background noise suppressed? (y/N)"), "\(question)")
        #expect(reduce(&state, .key(.character("y"))) == [.stopPlayback, .editMemo(request)])
        #expect(state.work.map(\.kind) == [.editing(request)])
        let made = Fixtures.memo(100, "Standup notes", minutesAgo: 2, seconds: 80, size: 800_000)
        _ = reduce(&state, .memoEdited(EditOutcome(
            request: request, originalID: 1, title: "Standup notes", originalDuration: 80, made: [made], reencoded: false)))
        #expect(state.status?.text == "Enhanced “Standup notes”: its background noise suppressed. The original is in Recently Deleted; u brings it back.", "\(String(describing: state.status))")

        var browsing = Fixtures.state(width: 80, height: 24)
        let selected = browsing.selectedMemo
        #expect(reduce(&browsing, .key(.character("F"))) == [])
        #expect(browsing.mode == .confirmingEdit(.enhance(memoID: selected?.id ?? -1, title: selected?.title ?? "")))
        #expect(reduce(&browsing, .key(.character("n"))) == [])
        #expect(browsing.mode == .browsing && browsing.status?.text == "Not changed.")
    }

    @Test func zRemovesThePausesOfThePlayingOrTheSelectedMemoAfterAsking() {
        // Playing memo 1 while memo 2 is selected: the one that plays.
        var state = playing(elapsed: 12)
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.character("Z"))) == [])
        let request = EditRequest.removeSilences(memoID: 1, title: "Standup notes")
        #expect(state.mode == .confirmingEdit(request))
        let question = AppView.render(state).lines()[state.layout.status?.y ?? 0]
        #expect(question.contains("Cut each pause of “Standup notes” to 0.5 s? (y/N) Below -50 dBFS is a pause"), "\(question)")
        #expect(KeyHelp.footer(for: state).map(\.0) == ["y", "n"])
        #expect(reduce(&state, .key(.character("y"))) == [.stopPlayback, .editMemo(request)])
        #expect(state.work.map(\.kind) == [.editing(request)])
        _ = reduce(&state, .tick(time: state.now + 1, snapshot: nil))
        #expect(state.statusLine?.text.hasPrefix("Removing the pauses of “Standup notes”") == true, "\(String(describing: state.statusLine))")

        // Nothing plays: the selected memo; n keeps it.
        var browsing = Fixtures.state(width: 80, height: 24)
        _ = reduce(&browsing, .key(.down))
        let selected = browsing.selectedMemo
        #expect(selected != nil && selected?.id != 1)
        #expect(reduce(&browsing, .key(.character("Z"))) == [])
        #expect(browsing.mode == .confirmingEdit(.removeSilences(memoID: selected?.id ?? -1, title: selected?.title ?? "")))
        #expect(reduce(&browsing, .key(.character("n"))) == [])
        #expect(browsing.mode == .browsing && browsing.status?.text == "Not changed.")

        // The answer says how long it was and is.
        let made = Fixtures.memo(100, "Standup notes", minutesAgo: 2, seconds: 80, size: 800_000)
        _ = reduce(&state, .memoEdited(EditOutcome(
            request: request, originalID: 1, title: "Standup notes", originalDuration: 131, made: [made], reencoded: false)))
        #expect(state.status?.text == "Removed the pauses of “Standup notes”: 131 s → 80 s. The original is in Recently Deleted; u brings it back.")
        #expect(state.selectedMemo?.id == 100)
        #expect(state.undoStack.last == .edited(originalID: 1, title: "Standup notes", madeIDs: [100]))
    }

    /// The new memo's transcript finishing a moment later does not hide the edit's result (with
    /// its "u brings it back"); once that has gone, a later transcript says so.
    @Test func aTranscriptFinishingDoesNotHideTheEditsResult() {
        var state = trimmed()
        let result = state.status?.text
        #expect(result?.hasPrefix("Trimmed “Standup notes”") == true)
        _ = reduce(&state, .transcription(.finished(memoID: 100, title: "Standup notes", words: 12)))
        #expect(state.status?.text == result, "the edit's result stays")
        _ = reduce(&state, .tick(time: state.now + StatusMessage.infoLifetime + 1, snapshot: nil))
        _ = reduce(&state, .transcription(.finished(memoID: 100, title: "Standup notes", words: 12)))
        #expect(state.status?.text == "Transcribed “Standup notes”: 12 words.")
    }

    @Test func zIsRefusedWithoutAMemoAndWhileItRecords() {
        var empty = Fixtures.state(width: 80, height: 24, memos: [])
        #expect(reduce(&empty, .key(.character("Z"))) == [])
        #expect(empty.status?.text == "Z removes the pauses of a memo: select one (↑ ↓) or play it first.")
        #expect(empty.mode == .browsing)
        var recording = playing(elapsed: 30)
        _ = reduce(&recording, .recordingStarted(title: "Memo", memoID: 1))
        #expect(reduce(&recording, .key(.character("Z"))) == [])
        #expect(recording.status?.text == "“Standup notes” is being recorded; it can be edited once the recording stops.")
    }

    /// What the runner answers after a trim of memo 1 into memo 100.
    func trimmed() -> AppState {
        var state = playing(elapsed: 10)
        _ = reduce(&state, .key(.character("(")))
        _ = reduce(&state, .key(.character("X")))
        _ = reduce(&state, .key(.character("y")))
        let made = Fixtures.memo(100, "Standup notes", minutesAgo: 2, seconds: 121, size: 1_000_000)
        var original = Fixtures.memos[0]
        original.deletedAt = original.created
        let request = EditRequest.trim(memoID: 1, title: "Standup notes", start: 10, end: 131)
        _ = reduce(&state, .memoEdited(EditOutcome(
            request: request, originalID: 1, title: "Standup notes", originalDuration: 131, made: [made], reencoded: false)))
        _ = reduce(&state, .libraryLoaded(memos: [made] + Fixtures.memos.dropFirst(), deleted: [original]))
        _ = reduce(&state, .workFinished)
        return state
    }

    @Test func theTrimmedMemoIsSelectedAndUBringsTheOriginalBack() {
        var state = trimmed()
        #expect(state.selectedMemo?.id == 100)
        #expect(state.status?.text == "Trimmed “Standup notes” to 121 s. The original is in Recently Deleted; u brings it back.")
        #expect(state.undoStack.last == .edited(originalID: 1, title: "Standup notes", madeIDs: [100]))
        #expect(reduce(&state, .key(.character("u"))) == [.undoEdit(originalID: 1, madeIDs: [100])])
        #expect(state.work.map(\.kind) == [.undoingEdit(title: "Standup notes")])
        #expect(state.undoStack.isEmpty)
    }

    @Test func undoWhenTheOriginalWasRestoredElsewhereChangesNothing() {
        var state = trimmed()
        _ = reduce(&state, .libraryLoaded(memos: Fixtures.memos, deleted: []))
        #expect(reduce(&state, .key(.character("u"))) == [])
        #expect(state.status == StatusMessage(text: "“Standup notes” was restored or purged elsewhere since; not undone.", kind: .error))
    }

    @Test func undoStopsTheMadeMemoIfItPlays() {
        var state = trimmed()
        _ = reduce(&state, .playbackStarted(memoID: 100, title: "Standup notes", duration: 121, channels: 2))
        #expect(reduce(&state, .key(.character("u"))) == [.stopPlayback, .undoEdit(originalID: 1, madeIDs: [100])])
    }

    @Test func theKeysAreShownWhilePlayingAndInTheHelp() {
        let state = playing()
        let footer = KeyHelp.footer(for: state).map(\.0)
        #expect(footer.contains("( ) X") && footer.contains("S"))
        let bottom = AppView.render(state).lines()[23]
        #expect(bottom.contains("( ) X trim  S split"), "visible at 80 columns: \(bottom)")
        let help = KeyHelp.all.map(\.0)
        #expect(help.contains("( )") && help.contains("X") && help.contains("S"))
    }

    // MARK: The band in the layout

    @Test func theBandWantsTheShownMemoAndFitsFromTwentyColumns() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(state.wantedWaveform == 1, "the selected memo")
        #expect(state.layout.waveform == nil, "no room taken before an envelope was read")
        _ = reduce(&state, .waveformLoaded(memoID: 1, PeakEnvelope(blockFrames: 2_400, peaks: [200, 0])))
        #expect(state.layout.waveform == Rect(x: 0, y: 4, width: 80, height: 2), "under the meter and its scale")
        _ = reduce(&state, .key(.down))
        #expect(state.wantedWaveform == 2)
        _ = reduce(&state, .playbackStarted(memoID: 3, title: "Interview", duration: 3725, channels: 2))
        #expect(state.wantedWaveform == 3, "the memo that plays")
        for (width, height) in [(30, 8), (19, 24), (80, 12)] {
            _ = reduce(&state, .resize(width: width, height: height))
            #expect(state.layout.waveform == nil, "\(width)×\(height)")
            #expect(state.wantedWaveform == nil)
        }
        for (width, height) in [(20, 24), (80, 15), (200, 50)] {
            _ = reduce(&state, .resize(width: width, height: height))
            #expect(state.layout.waveform != nil, "\(width)×\(height)")
        }
    }
}

/// `P`: the preview of what `X` keeps plays from the in point and pauses at the out point.
@Suite struct TrimPreviewTests {
    static func playing() -> AppState {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 131, channels: 2))
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 11, PlaybackSnapshot(elapsed: 20, channels: [])))
        return state
    }

    @Test func pPlaysFromInAndPausesAtOut() {
        var state = Self.playing()
        #expect(reduce(&state, .key(.character("P"))) == [], "no points: refused")
        #expect(state.status?.text.contains("set ( and ) first") == true)
        _ = reduce(&state, .key(.character("(")))
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 12, PlaybackSnapshot(elapsed: 30, channels: [])))
        _ = reduce(&state, .key(.character(")")))
        _ = reduce(&state, .key(.character(" ")))
        #expect(state.playback?.isPaused == true)
        #expect(reduce(&state, .key(.character("P"))) == [.jumpPlayback(to: 20), .resumePlayback], "paused: it plays")
        #expect(state.status?.text.hasPrefix("Previewing 20 s … 30 s") == true, "\(String(describing: state.status))")
        #expect(reduce(&state, .playbackProgress(time: Fixtures.now + 13, PlaybackSnapshot(elapsed: 29.9, channels: []))) == [])
        #expect(reduce(&state, .playbackProgress(time: Fixtures.now + 14, PlaybackSnapshot(elapsed: 30.02, channels: []))) == [.pausePlayback])
        #expect(state.playback?.isPaused == true && state.previewEnd == nil)
        #expect(state.status?.text.hasPrefix("Preview ended at the out point") == true)
        #expect(reduce(&state, .playbackProgress(time: Fixtures.now + 15, PlaybackSnapshot(elapsed: 31, channels: []))) == [], "once")
        #expect(KeyHelp.all.contains { $0.0 == "P" })
    }

    @Test func inNotBeforeOutIsRefused() {
        var state = Self.playing()
        _ = reduce(&state, .key(.character(")")))
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 12, PlaybackSnapshot(elapsed: 40, channels: [])))
        _ = reduce(&state, .key(.character("(")))
        #expect(reduce(&state, .key(.character("P"))) == [])
        #expect(state.previewEnd == nil && state.status?.text.contains("nothing to preview") == true)
    }
}
