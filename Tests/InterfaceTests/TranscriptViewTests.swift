import TestSupport
import Testing

@testable import Interface

/// The app's transcripts, through the reducer and the views: `/` over spoken words, ⏎ from
/// the word, the `T` view following the play head, the background job on the status row.
@Suite struct TranscriptViewTests {
    /// 200 words, one every 0.8 s ("word0" … "word199", "leisure" the 21st), a phrase pause after every 15th.
    static let words: [SpokenWord] = (0..<200).map { index in
        let start = Double(index) * 0.8 + Double(index / 15) * 1.5
        return SpokenWord(word: index == 20 ? "leisure" : "word\(index)", start: start, end: start + 0.6)
    }

    /// The memo table with "leis" typed into the filter: no title holds it; `match` (memo 2,
    /// at 16.0 s) is what the runner's search would answer.
    static func filtered(width: Int = 80, height: Int = 24) -> AppState {
        var state = Fixtures.state(width: width, height: height)
        _ = reduce(&state, .key(.character("/")))
        for character in "leis" { _ = reduce(&state, .key(.character(character))) }
        return state
    }

    static let match = TranscriptMatch(memoID: 2, time: 16.0, snippet: "… word17 word18 word19 leisure word21 word22 …")

    @Test func typingInTheFilterSearchesTheTranscriptsAndAMatchShowsItsSnippetBeneath() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("/"))).isEmpty)
        #expect(reduce(&state, .key(.character("l"))) == [.searchTranscripts(query: "l")])
        #expect(state.work.map(\.kind) == [.searchingTranscripts(query: "l")])
        #expect(reduce(&state, .key(.character("e"))) == [.searchTranscripts(query: "le")])
        // The answer for "l" comes after "le" was typed: it is not shown.
        _ = reduce(&state, .transcriptMatchesFound(query: "l", [Self.match]))
        _ = reduce(&state, .workFinished)
        #expect(state.visibleMemos.isEmpty, "no title holds “le”, and the matches were for “l”")
        _ = reduce(&state, .transcriptMatchesFound(query: "le", [Self.match]))
        _ = reduce(&state, .workFinished)
        #expect(state.visibleMemos.map(\.id) == [2])
        let lines = AppView.render(state).lines()
        let row = lines.firstIndex { $0.contains("Idea for the parser") }
        #expect(row != nil, "\(lines)")
        if let row {
            #expect(lines[row + 1].hasPrefix("    00:00:16  “… word17 word18 word19 leisure word21 word22 …”"), "\(lines)")
        }
        #expect(state.work.isEmpty)
    }

    @Test func enterOnAWordMatchPlaysFromTheWordAndEscForgetsTheMatches() {
        var state = Self.filtered()
        _ = reduce(&state, .transcriptMatchesFound(query: "leis", [Self.match]))
        _ = reduce(&state, .key(.enter))  // closes the prompt
        let memo = Fixtures.memos[1]
        #expect(reduce(&state, .key(.enter)) == [.play(memo, from: 16.0)])
        _ = reduce(&state, .playbackFailed(.playbackNotStarted(title: memo.title, detail: "no device")))
        #expect(reduce(&state, .key(.escape)).isEmpty)
        #expect(state.filter.isEmpty && state.transcriptMatches.isEmpty)
        // Without the filter the same memo plays from its start.
        state.selection = 1
        #expect(reduce(&state, .key(.enter)) == [.play(memo, from: 0)])
    }

    @Test func matchesTakeTwoLinesAndTheSelectionStaysInSight() {
        // Every memo matched: at 80x24 the table has rows for 6 memos of two lines.
        let many = (1...12).map { Fixtures.memo(Int64($0), "Memo \($0)", minutesAgo: Double($0), seconds: 30, size: 1000) }
        var state = Fixtures.state(width: 80, height: 24, memos: many)
        _ = reduce(&state, .key(.character("/")))
        _ = reduce(&state, .key(.character("x")))
        let matches = many.map { TranscriptMatch(memoID: $0.id, time: 1, snippet: "x marks the spot") }
        _ = reduce(&state, .transcriptMatchesFound(query: "x", matches))
        let rows = state.layout.tableRows
        for _ in 0..<11 { _ = reduce(&state, .key(.down)) }
        #expect(state.selection == 11)
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix("▶ Memo 12") }, "the last memo is in sight: \(lines)")
        #expect(state.scrollOffset == 12 - rows / 2, "rows \(rows), offset \(state.scrollOffset)")
        for _ in 0..<11 { _ = reduce(&state, .key(.up)) }
        #expect(state.scrollOffset == 0)
    }

    /// A state with the transcript view open on memo 1 and its words loaded.
    static func viewing(width: Int = 80, height: Int = 24) -> AppState {
        var state = Fixtures.state(width: width, height: height)
        #expect(reduce(&state, .key(.character("T"))) == [.loadTranscript(memoID: 1)])
        _ = reduce(&state, .transcriptLoaded(memoID: 1, .words(words)))
        _ = reduce(&state, .workFinished)
        return state
    }

    /// Plays memo 1 in `state` with the play head at `elapsed`.
    static func play(_ state: inout AppState, at elapsed: Double) {
        if state.playback == nil {
            _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 300, channels: 2))
        }
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 20, PlaybackSnapshot(elapsed: elapsed, channels: [])))
    }

    @Test func theViewHighlightsTheWordBeingHeardAndFollowsIt() throws {
        var state = Self.viewing()
        #expect(state.mode == .transcript)
        var screen = AppView.render(state)
        #expect(screen.lines().contains { $0.contains(" Transcript of “Standup notes” · 200 words · English") })
        #expect(screen.lines().contains { $0.hasPrefix(" 00:00:00  word0 word1") })
        #expect(!screen.lines().contains { $0.contains("word199") }, "the end is below the view")

        Self.play(&state, at: 16.8)  // word19 starts at 15.2 + 1.5, "leisure" at 16.0 + 1.5
        #expect(TranscriptLayout.highlightedWord(state) == 19)
        Self.play(&state, at: 17.6)
        #expect(TranscriptLayout.highlightedWord(state) == 20)
        screen = AppView.render(state)
        let row = try #require(screen.lines().firstIndex { $0.contains("leisure") })
        let column = try #require(screen.lines()[row].range(of: "leisure")).lowerBound.utf16Offset(in: screen.lines()[row])
        #expect(screen[column, row].style.attributes.contains(.reverse), "the word heard is highlighted")
        #expect(!screen[column - 2, row].style.attributes.contains(.reverse))

        // Near the end the view has scrolled to keep the word in sight.
        Self.play(&state, at: 170)
        screen = AppView.render(state)
        #expect(TranscriptLayout.top(state) > 0)
        let heard = try #require(TranscriptLayout.highlightedWord(state))
        #expect(screen.lines().contains { $0.contains("word\(heard) ") || $0.hasSuffix("word\(heard)") || $0.contains("word\(heard)|") })
    }

    @Test func keysInTheView() {
        var state = Self.viewing()
        // Scrolling by hand stops following; ⏎ plays from the first line shown and follows again.
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        #expect(state.transcriptView?.followsPlayback == false)
        let top = TranscriptLayout.top(state)
        #expect(top == 2)
        let lines = TranscriptLayout.lines(Self.words, width: 80)
        #expect(reduce(&state, .key(.enter)) == [.play(Fixtures.memos[0], from: lines[top].start)])
        #expect(state.transcriptView?.followsPlayback == true)
        Self.play(&state, at: lines[top].start)
        #expect(reduce(&state, .key(.character(" "))) == [.pausePlayback])
        #expect(reduce(&state, .key(.right)) == [.seekPlayback(by: 5)])
        #expect(reduce(&state, .key(.character("s"))) == [.stopPlayback])
        _ = reduce(&state, .key(.end))
        #expect(TranscriptLayout.top(state) == max(lines.count - TranscriptLayout.rows(in: state.layout.body), 0))
        _ = reduce(&state, .key(.escape))
        #expect(state.mode == .browsing && state.transcriptView == nil)
        // T on an empty library says so.
        var empty = Fixtures.state(width: 80, height: 24, memos: [])
        #expect(reduce(&empty, .key(.character("T"))).isEmpty)
        #expect(empty.mode == .browsing && empty.status?.text == "No memo to show the transcript of.")
    }

    @Test func whatTheViewSaysWithoutWords() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("T")))
        #expect(AppView.render(state).lines().contains { $0.contains("Reading the transcript…") })
        _ = reduce(&state, .transcriptLoaded(memoID: 1, .missing))
        #expect(AppView.render(state).lines().contains { $0.contains("Not transcribed. voicememo transcribe 1 makes") })
        state.transcription.isEnabled = true
        #expect(AppView.render(state).lines().contains { $0.contains("waiting its turn in the background") })
        _ = reduce(&state, .transcription(.started(memoID: 1, title: "Standup notes", waiting: 0)))
        _ = reduce(&state, .transcription(.progress(memoID: 1, fraction: 0.42)))
        #expect(AppView.render(state).lines().contains { $0.contains("Transcribing… 42 %") })
        // Done while the view is open: it is read again.
        #expect(reduce(&state, .transcription(.finished(memoID: 1, title: "Standup notes", words: 3))) == [.loadTranscript(memoID: 1)])
        _ = reduce(&state, .transcriptLoaded(memoID: 1, .failed("the file cannot be read")))
        #expect(AppView.render(state).lines().contains { $0.contains("could not be transcribed: the file cannot be read") })
        _ = reduce(&state, .transcriptLoaded(memoID: 1, .words([])))
        #expect(AppView.render(state).lines().contains { $0.contains("No words were recognised") })
    }

    @Test func theJobPausesWhileARecordingIsStartedRunsOrIsSavedAndShowsItsProgress() {
        var state = Fixtures.state(width: 80, height: 24)
        state.transcription.isEnabled = true
        #expect(!state.pausesTranscription)
        _ = reduce(&state, .transcription(.started(memoID: 3, title: "Interview", waiting: 2)))
        _ = reduce(&state, .transcription(.progress(memoID: 3, fraction: 0.4)))
        _ = reduce(&state, .tick(time: Fixtures.now + 30, snapshot: Fixtures.levels(recording: .idle)))
        // The memo as the table titles it, not as the job read it.
        #expect(state.transcriptionLine == "Transcribing “Interview with Dr. Ōtsuka” 40 % · 2 more")
        #expect(AppView.render(state).lines()[22].hasPrefix(" Transcribing “Interview with Dr. Ōtsuka” 40 % · 2 more"))
        _ = reduce(&state, .key(.character("r")))
        #expect(state.pausesTranscription, "the recording is being started")
        _ = reduce(&state, .recordingStarted(title: "Memo"))
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .tick(time: Fixtures.now + 31, snapshot: Fixtures.levels(recording: .recording)))
        #expect(state.pausesTranscription)
        #expect(state.transcriptionLine == "Transcription of “Interview with Dr. Ōtsuka” paused while recording (40 %) · 2 more")
        _ = reduce(&state, .tick(time: Fixtures.now + 32, snapshot: Fixtures.levels(recording: .paused)))
        #expect(state.pausesTranscription, "a paused recording is still a recording")
        _ = reduce(&state, .key(.character("s")))
        #expect(state.pausesTranscription, "being saved")
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .tick(time: Fixtures.now + 33, snapshot: Fixtures.levels(recording: .idle)))
        #expect(!state.pausesTranscription)
        // A saved memo wakes the job; a job that cannot run says why, once, and is not woken again.
        #expect(reduce(&state, .libraryLoaded(memos: Fixtures.memos, deleted: [])) == [.transcribeNewMemos])
        _ = reduce(&state, .transcription(.unavailable(.model(detail: "the speech model is missing (install pocketsphinx-en-us)"))))
        #expect(state.status?.kind == .error && state.status?.text.contains("pocketsphinx-en-us") == true)
        #expect(state.transcriptionLine == nil)
        #expect(reduce(&state, .libraryLoaded(memos: Fixtures.memos, deleted: [])).isEmpty)
    }

    /// The job's failures are values, worded here: a memo whose file is at fault or whose
    /// transcript could not be stored is named and the job goes on; a library the job cannot
    /// open makes transcripts unavailable.
    @Test func theJobsFailuresAreWordedForTheStatusLine() {
        var state = Fixtures.state(width: 120, height: 40)
        _ = reduce(&state, .transcription(.started(memoID: 1, title: "Standup notes", waiting: 1)))
        _ = reduce(&state, .transcription(.failed(memoID: 1, title: "Standup notes", problem: .notStored(detail: "the disk is full"))))
        #expect(state.status?.text == "Could not transcribe “Standup notes”: its transcript could not be stored: the disk is full")
        #expect(state.transcription.unavailable == nil, "the job goes on with the next memo")
        // A memo the table does not list (yet): the job's title for it.
        _ = reduce(&state, .transcription(.failed(memoID: 99, title: "Call", problem: .file(detail: "call.flac cannot be read as audio"))))
        #expect(state.status?.text == "Could not transcribe “Call”: call.flac cannot be read as audio")
        _ = reduce(&state, .transcription(.unavailable(.library(detail: "the index is locked"))))
        #expect(state.status?.kind == .error)
        #expect(state.status?.text == "Transcripts are unavailable: the library cannot be opened for transcription: the index is locked")
        #expect(state.transcription.unavailable == .library(detail: "the index is locked"))
    }

    /// A silent input's advice holds the status line; the job's progress goes
    /// on the row under it, at 80×24 and 120×40; a message that wraps keeps both rows.
    @Test func theProgressKeepsARowOfItsOwnUnderTheAdvice() {
        for (width, height) in [(80, 24), (120, 40)] {
            var state = Fixtures.state(width: width, height: height)
            state.transcription.isEnabled = true
            _ = reduce(&state, .transcription(.started(memoID: 3, title: "Interview", waiting: 0)))
            _ = reduce(&state, .transcription(.progress(memoID: 3, fraction: 0.25)))
            _ = reduce(&state, .tick(time: Fixtures.now + 30, snapshot: Fixtures.mutedInput))
            #expect(state.statusLine?.kind == .warning, "\(width)x\(height)")
            let lines = AppView.render(state).lines()
            let advice = lines.firstIndex { $0.contains("Input is silent") }
            let progress = lines.firstIndex { $0.contains("Transcribing “Interview with Dr. Ōtsuka” 25 %") }
            #expect(advice != nil && progress == advice.map { $0 + 1 }, "\(width)x\(height):\n\(lines.joined(separator: "\n"))")
            #expect(lines[height - 1].contains("? help"), "the footer stays")
        }
        // At 60 columns the advice wraps onto both rows and keeps them: it is the one to act on.
        var narrow = Fixtures.state(width: 60, height: 20)
        narrow.transcription.isEnabled = true
        _ = reduce(&narrow, .transcription(.started(memoID: 3, title: "Interview", waiting: 0)))
        _ = reduce(&narrow, .tick(time: Fixtures.now + 30, snapshot: Fixtures.mutedInput))
        let narrowLines = AppView.render(narrow).lines()
        #expect(narrowLines[17].contains("Input is silent") && narrowLines[18].contains("(alsamixer, F4)"), "\(narrowLines.joined(separator: "\n"))")
        // Too short for two status rows: the advice alone, as before.
        var short = Fixtures.state(width: 80, height: 12)
        short.transcription.isEnabled = true
        _ = reduce(&short, .transcription(.started(memoID: 3, title: "Interview", waiting: 0)))
        _ = reduce(&short, .tick(time: Fixtures.now + 30, snapshot: Fixtures.mutedInput))
        let lines = AppView.render(short).lines()
        #expect(lines.contains { $0.contains("Input is silent") } && !lines.contains { $0.contains("Transcribing") })
    }

    @Test func theKeyIsListed() {
        #expect(KeyHelp.all.contains { $0.0 == "T" })
        #expect(KeyHelp.footer(for: .browsing).contains { $0.0 == "T" })
        let footer = KeyHelp.footer(for: .transcript).map(\.0)
        #expect(footer == ["⏎", "Esc q", "space", "← →", "s", "/", "w b", "↑↓", "v", "x", "K", "?"])
        // Every key the view takes is in its footer (k j g G Home End PgUp PgDn are the table's too).
        let state = Self.viewing()
        for key in [Key.character("z"), .character("r"), .tab] {
            var copy = state
            #expect(reduce(&copy, .key(key)).isEmpty && copy.mode == .transcript, "\(key) does nothing here")
        }
    }

    @Test func snapshots() {
        for (width, height) in [(80, 24), (30, 8), (40, 12), (1, 1)] {
            var state = Self.viewing(width: width, height: height)
            Self.play(&state, at: 17.6)
            assertSnapshot(AppView.render(state), named: "transcript-playing-\(width)x\(height)")
            var filtered = Self.filtered(width: width, height: height)
            _ = reduce(&filtered, .transcriptMatchesFound(query: "leis", [Self.match]))
            assertSnapshot(AppView.render(filtered), named: "transcript-match-\(width)x\(height)")
        }
        var tiny = Self.viewing(width: 0, height: 0)
        Self.play(&tiny, at: 3)
        #expect(AppView.render(tiny).lines().isEmpty)
    }
}
