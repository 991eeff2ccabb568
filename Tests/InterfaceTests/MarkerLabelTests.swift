import TestSupport
import Testing

@testable import Interface

/// `B`: a label for the marker at (or before) the play head, typed in a prompt while the memo
/// plays on; `n` and `N` say it, `I` lists it.
@Suite struct MarkerLabelTests {
    func playing(elapsed: Double = 10, markers: [Double] = [5, 30, 90], labels: [Double: String] = [:]) -> AppState {
        var state = PlaybackReducerTests().playing(elapsed: elapsed)
        _ = reduce(&state, .markersLoaded(memoID: 1, times: markers, labels: labels))
        return state
    }

    @Test func bOpensThePromptOfTheMarkerAtOrBeforeThePlayHeadWithItsLabelSelected() {
        var state = playing(elapsed: 31, labels: [30: "Budget"])
        #expect(reduce(&state, .key(.character("B"))) == [])
        guard case .labelingMarker(let memoID, let time, let field) = state.mode else {
            Issue.record("no label prompt: \(state.mode)")
            return
        }
        #expect(memoID == 1 && time == 30)
        #expect(field.text == "Budget" && field.isSelected, "typing replaces the label")
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("Label of marker 2 (00:00:30): Budget") }, "\(lines)")
        #expect(KeyHelp.footer(for: state).map(\.0) == ["type", "⏎", "⌫", "Esc"])
    }

    @Test func onANarrowScreenThePromptsWordsLeaveRoomForTheLabel() {
        var state = playing(elapsed: 31, labels: [30: "Budget"])
        state.width = 30
        _ = reduce(&state, .key(.character("B")))
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix(" Label: Budget") }, "\(lines)")
    }

    @Test func typedLabelIsKeptOnEnterAndSaidByNAndN() {
        var state = playing(elapsed: 6)
        _ = reduce(&state, .key(.character("B")))
        for character in "Intro" { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.enter)) == [.labelMarker(memoID: 1, time: 5, label: "Intro")])
        #expect(state.mode == .browsing)
        #expect(state.playback?.markerLabels == [5: "Intro"])
        #expect(state.status?.text == "Marker at 00:00:05 labelled “Intro”.")
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 5, PlaybackSnapshot(elapsed: 3, channels: [])))
        _ = reduce(&state, .key(.character("n")))
        #expect(state.status?.text == "Marker 1 of 3, 00:00:05: Intro.")
    }

    @Test func escLeavesTheLabelAsItWasAndAnEmptyOneRemovesIt() {
        var state = playing(elapsed: 50, labels: [30: "Budget"])
        _ = reduce(&state, .key(.character("B")))
        _ = reduce(&state, .key(.character("x")))
        #expect(reduce(&state, .key(.escape)) == [])
        #expect(state.mode == .browsing && state.playback?.markerLabels == [30: "Budget"])
        _ = reduce(&state, .key(.character("B")))
        _ = reduce(&state, .key(.backspace))
        #expect(reduce(&state, .key(.enter)) == [.labelMarker(memoID: 1, time: 30, label: "")])
        #expect(state.playback?.markerLabels == [:])
        #expect(state.status?.text == "Marker at 00:00:30 has no label.")
    }

    @Test func beforeEveryMarkerTheFirstIsLabelled() {
        var state = playing(elapsed: 1)
        _ = reduce(&state, .key(.character("B")))
        guard case .labelingMarker(_, let time, _) = state.mode else {
            Issue.record("no label prompt: \(state.mode)")
            return
        }
        #expect(time == 5)
    }

    @Test func withoutMarkersOrPlaybackBSaysWhatToDo() {
        var state = playing(markers: [])
        #expect(reduce(&state, .key(.character("B"))) == [])
        #expect(state.mode == .browsing)
        #expect(state.status?.text == "This memo has no markers: b adds one at the play head, then B labels it.")
        var idle = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&idle, .key(.character("B"))) == [])
        #expect(idle.status?.text == "B labels a marker of the memo that plays: play it (⏎), b marks the play head, then B.")
    }

    @Test func labelsFromTheIndexDoNotReplaceOnesGivenMeanwhile() {
        var state = playing(elapsed: 6, markers: [])
        _ = reduce(&state, .key(.character("b")))
        _ = reduce(&state, .key(.character("B")))
        for character in "Mine" { _ = reduce(&state, .key(.character(character))) }
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .markersLoaded(memoID: 1, times: [6, 40], labels: [6: "Old", 40: "Later"]))
        #expect(state.playback?.markerLabels == [6: "Mine", 40: "Later"])
    }

    @Test func theHelpScreenNamesB() {
        #expect(KeyHelp.all.contains { $0.0 == "B" && $0.1.contains("label the marker") })
    }
}

/// `I`: the memo's markers and its transcript's state, read when it opens.
@Suite struct MemoDetailsExtrasTests {
    static let words = [SpokenWord(word: "hello", start: 0.5, end: 0.9), SpokenWord(word: "world", start: 1, end: 1.4)]

    func details(_ extras: MemoExtras?, transcription: BackgroundTranscription = BackgroundTranscription()) -> [String: String] {
        var state = Fixtures.state(width: 80, height: 24)
        state.transcription = transcription
        _ = reduce(&state, .key(.character("I")))
        if let extras { _ = reduce(&state, .memoDetailsLoaded(extras)) }
        let memo = Fixtures.memos[0]
        return Dictionary(uniqueKeysWithValues: MemoDetailsView.lines(memo, state: state).map { ($0.label, $0.value) })
    }

    @Test func iAsksForTheExtrasAndShowsAnEllipsisUntilTheyCome() {
        var state = Fixtures.state(width: 80, height: 24)
        let id = Fixtures.memos[0].id
        #expect(reduce(&state, .key(.character("I"))) == [.loadMemoDetails(memoID: id)])
        let values = details(nil)
        #expect(values["Markers"] == "…" && values["Transcript"] == "…")
    }

    @Test func markersWithTheirLabelsEarliestFirst() {
        let id = Fixtures.memos[0].id
        let values = details(MemoExtras(memoID: id, markers: [.init(time: 5, label: "Intro"), .init(time: 70)], transcript: .words(Self.words)))
        #expect(values["Markers"] == "2: 00:00:05 Intro · 00:01:10")
        #expect(values["Transcript"] == "2 words (T shows them, / finds them)")
        let none = details(MemoExtras(memoID: id, markers: [], transcript: .words([])))
        #expect(none["Markers"] == "none (b marks the play head while it plays)")
        #expect(none["Transcript"] == "transcribed: no words were recognised")
    }

    @Test func aTranscriptNotYetMadeBeingMadeOrFailed() {
        let id = Fixtures.memos[0].id
        #expect(details(MemoExtras(memoID: id, markers: [], transcript: .missing))["Transcript"]
            == "none: voicememo transcribe makes one (or transcribe = auto)")
        var enabled = BackgroundTranscription(isEnabled: true)
        #expect(details(MemoExtras(memoID: id, markers: [], transcript: .missing), transcription: enabled)["Transcript"]
            == "not yet (the app transcribes new memos in the background)")
        enabled.apply(.started(memoID: id, title: "x", waiting: 0))
        enabled.apply(.progress(memoID: id, fraction: 0.42))
        #expect(details(MemoExtras(memoID: id, markers: [], transcript: .missing), transcription: enabled)["Transcript"] == "being transcribed, 42 %")
        #expect(details(MemoExtras(memoID: id, markers: [], transcript: .failed("the file is damaged")))["Transcript"]
            == "could not be transcribed: the file is damaged")
    }

    @Test func markersThatCouldNotBeReadSaySoRatherThanNone() {
        let id = Fixtures.memos[0].id
        let values = details(MemoExtras(memoID: id, markers: [], markersProblem: "the memo index is locked", transcript: .missing))
        #expect(values["Markers"] == "cannot be read: the memo index is locked")
    }

    @Test func anotherMemosExtrasAreNotShown() {
        let values = details(MemoExtras(memoID: 999, markers: [.init(time: 1)], transcript: .missing))
        #expect(values["Markers"] == "…")
    }

    @Test func whereTheLinesDoNotFitTheLeastTellingGoFirst() {
        let lines = ["Title", "File", "Format", "Length", "Size", "Recorded", "Levels", "Loudness", "Clips", "State", "Markers", "Transcript"]
            .map { (label: $0, value: "") }
        #expect(MemoDetailsView.fitting(lines, rows: 7).map(\.label) == ["Title", "File", "Format", "Length", "State", "Markers", "Transcript"])
        #expect(MemoDetailsView.fitting(lines, rows: 12).count == 12 && MemoDetailsView.fitting(lines, rows: 0).isEmpty)
        #expect(MemoDetailsView.fitting(lines, rows: -1).isEmpty)
    }

    @Test func aDeletedMemoHasNeither() {
        var memo = Fixtures.memos[0]
        memo.deletedAt = Fixtures.now
        let labels = MemoDetailsView.lines(memo, state: Fixtures.state(width: 80, height: 24)).map(\.label)
        #expect(!labels.contains("Markers") && !labels.contains("Transcript") && labels.contains("Why"))
    }
}
