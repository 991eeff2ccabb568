
/// Transcripts' part of `reduce`: the transcript view's keys (`T` opens it), the `/`
/// filter's search by spoken words, and the background job's reports.
enum TranscriptUpdate {
    /// `T` on the memo table: opens the selected memo's transcript and asks for it.
    static func open(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedMemo else {
            state.say("No memo to show the transcript of.")
            return []
        }
        state.transcriptView = TranscriptViewState(memoID: memo.id, title: memo.title)
        state.mode = .transcript
        return [.loadTranscript(memoID: memo.id)]
    }

    // The transcript view's keys (their rows: `KeyTable.transcript`).

    /// Esc or `T`: back to the table.
    static func close(_ state: inout AppState) -> [Effect] {
        state.mode = .browsing
        state.transcriptView = nil
        return []
    }

    /// `/`: back to the table with its find prompt open (it searches every memo's words).
    static func findOnTable(_ state: inout AppState) -> [Effect] {
        _ = close(&state)
        state.mode = .filtering(TextField(state.filter))
        return []
    }

    /// ↑ ↓ j k, PgUp PgDn, Home End g G: scrolls the lines (and stops following the play head).
    static func scroll(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard var view = state.transcriptView else { return close(&state) }
        let lines = TranscriptLayout.lines(view.words, width: state.layout.body.width)
        let rows = max(TranscriptLayout.rows(in: state.layout.body), 1)
        let top = TranscriptLayout.top(state)
        let last = max(lines.count - rows, 0)
        let scrolled =
            switch key {
            case .up, .character("k"): top - 1
            case .down, .character("j"): top + 1
            case .pageUp: top - rows
            case .pageDown: top + rows
            case .home, .character("g"): 0
            default: last
            }
        view.scroll = min(max(scrolled, 0), last)
        view.followsPlayback = false
        state.transcriptView = view
        return []
    }

    /// ⏎: plays the memo from the first line shown, and the view follows the play head.
    static func playFromTop(_ state: inout AppState) -> [Effect] {
        guard var view = state.transcriptView else { return close(&state) }
        let lines = TranscriptLayout.lines(view.words, width: state.layout.body.width)
        let top = TranscriptLayout.top(state)
        guard let memo = state.memos.first(where: { $0.id == view.memoID }) else {
            state.say("That memo is no longer in the library.")
            return []
        }
        guard state.recording == .idle else {
            state.say("Recording. Stop it (s on the table) before playing a memo.")
            return []
        }
        view.followsPlayback = true
        state.transcriptView = view
        return [.play(memo, from: lines.indices.contains(top) ? lines[top].start : 0)]
    }

    // Editing by words: a word cursor, a selection, and the cut or trim to it.

    /// `w` `b`: the word cursor to the next / previous word. Its first press puts it on the word
    /// heard, else on the first word of the top line; the view keeps it in sight.
    static func moveCursor(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard var view = state.transcriptView else { return close(&state) }
        let words = view.words
        guard !words.isEmpty else {
            state.say("No words here to move through.")
            return []
        }
        let lines = TranscriptLayout.lines(words, width: state.layout.body.width)
        let top = TranscriptLayout.top(state)
        if let cursor = view.cursor {
            view.cursor = min(max(cursor + (key == .character("b") ? -1 : 1), 0), words.count - 1)
        } else {
            let start = TranscriptLayout.highlightedWord(state) ?? (lines.indices.contains(top) ? lines[top].words.lowerBound : 0)
            view.cursor = start
            state.say("Word cursor on “\(words[start].word)”: w b move it, v selects from it, x cuts a word out.")
        }
        // The cursor's line in sight.
        let rows = max(TranscriptLayout.rows(in: state.layout.body), 1)
        if let cursor = view.cursor, let line = lines.firstIndex(where: { $0.words.contains(cursor) }) {
            view.scroll = line < top ? line : line >= top + rows ? line - rows + 1 : top
        }
        view.followsPlayback = false
        state.transcriptView = view
        if let selection = view.selection {
            state.say("\(selection.count) word\(selection.count == 1 ? "" : "s") selected: x cuts them out, K keeps only them, v lets go.")
        }
        return []
    }

    /// `v`: a selection from the word cursor (w b extend it), or, with one open, lets it go.
    static func toggleSelection(_ state: inout AppState) -> [Effect] {
        guard var view = state.transcriptView else { return close(&state) }
        guard !view.words.isEmpty else {
            state.say("No words here to select.")
            return []
        }
        if view.anchor != nil {
            view.anchor = nil
            state.transcriptView = view
            state.say("Selection let go.")
            return []
        }
        if view.cursor == nil { _ = moveCursor(.character("w"), &state) }
        view = state.transcriptView ?? view
        view.anchor = view.cursor
        state.transcriptView = view
        state.say("Selecting: w b extend it; x cuts the words out, K keeps only them, v lets go.")
        return []
    }

    /// `x` (cut the words out) and `K` (keep only them): asks first, as the table's edits do.
    /// The words are the selection, else the word under the cursor.
    static func askWordEdit(keeping: Bool, _ state: inout AppState) -> [Effect] {
        guard let view = state.transcriptView else { return close(&state) }
        let words = view.words
        guard let chosen = view.selection ?? view.cursor.map({ $0...$0 }), !words.isEmpty else {
            state.say("No words chosen: w b move the word cursor, v selects from it; then \(keeping ? "K keeps only them" : "x cuts them out").")
            return []
        }
        guard let memo = state.memos.first(where: { $0.id == view.memoID }) else {
            state.say("That memo is no longer in the library.")
            return []
        }
        if let refusal = EditKeys.recordingRefusal(memo, verb: "edited", state) {
            state.say(refusal)
            return []
        }
        if chosen == 0...(words.count - 1) {
            state.say(keeping
                ? "Those are all of its words: nothing to trim away. Select fewer (v, w b)."
                : "Those are all of its words: nothing would be left. Select fewer, or d on the table deletes the memo.")
            return []
        }
        let duration = max(memo.duration, words[words.count - 1].end)
        let before = chosen.lowerBound > 0 ? words[chosen.lowerBound - 1].end : 0
        let after = chosen.upperBound < words.count - 1 ? words[chosen.upperBound + 1].start : duration
        let span = WordSpan(
            pauseBefore: min(before, words[chosen.lowerBound].start)...words[chosen.lowerBound].start,
            pauseAfter: words[chosen.upperBound].end...max(after, words[chosen.upperBound].end),
            count: chosen.count, text: words[chosen].map(\.word).joined(separator: " "))
        state.mode = .confirmingEdit(
            keeping ? .keepWords(memoID: memo.id, title: memo.title, span: span) : .cutWords(memoID: memo.id, title: memo.title, span: span))
        return []
    }

    /// The filter's text changed: search the transcripts for it (or forget the matches).
    static func filterChanged(_ state: inout AppState) -> [Effect] {
        let query = MemoQuery(state.filter)
        let spoken = query.problem == nil ? query.spokenText : ""
        guard !spoken.isEmpty else {
            state.transcriptMatches = [:]
            state.transcriptMatchQuery = ""
            return []
        }
        guard spoken != state.transcriptMatchQuery else { return [] }
        return [.searchTranscripts(query: spoken)]
    }

    /// Applies the runner's and the job's answers; other actions are not its business.
    static func apply(_ action: Action, to state: inout AppState) -> [Effect] {
        switch action {
        case .transcriptMatchesFound(let query, let matches):
            guard query == MemoQuery(state.filter).spokenText else { return [] }
            // The selection stays on its memo (`settleSelection`), shown again if it matched.
            state.transcriptMatches = Dictionary(matches.map { ($0.memoID, $0) }, uniquingKeysWith: { first, _ in first })
            state.transcriptMatchQuery = query
            return []
        case .transcriptLoaded(let id, let content):
            if state.transcriptView?.memoID == id { state.transcriptView?.content = content }
            return []
        case .transcription(let event):
            return absorb(event, &state)
        default:
            return []
        }
    }

    private static func absorb(_ event: TranscriptionEvent, _ state: inout AppState) -> [Effect] {
        state.transcription.apply(event)
        switch event {
        case .finished(let id, let title, let words):
            state.mention("Transcribed “\(state.currentTitle(ofMemo: id, else: title))”: \(words) word\(words == 1 ? "" : "s").")
            return changed(id, &state)
        case .titled(let id, let previousTitle, let title, let words):
            titled(id, from: previousTitle, to: title, words: words, &state)
            return changed(id, &state)
        case .failed(let id, let title, let problem):
            state.say("Could not transcribe “\(state.currentTitle(ofMemo: id, else: title))”: \(problem.message)")
            return changed(id, &state)
        case .unavailable(let reason):
            state.fail("Transcripts are unavailable: \(reason.message)")
            return []
        case .started, .progress, .skipped, .idle:
            return []
        }
    }

    /// Memo `id` was titled from its words: the table shows the new title, and `u` gives the old
    /// one back as it undoes a rename. Unless the memo was renamed in the app meanwhile (the
    /// library did not retitle it then; an answer about a title the table no longer shows
    /// changes nothing).
    private static func titled(_ id: Int64, from previousTitle: String, to title: String, words: Int, _ state: inout AppState) {
        guard let index = state.memos.firstIndex(where: { $0.id == id }), state.memos[index].title == previousTitle else {
            state.mention("Transcribed “\(state.currentTitle(ofMemo: id, else: title))”: \(words) word\(words == 1 ? "" : "s").")
            return
        }
        state.memos[index].title = title
        // The title prompt still offering the old title, untouched, offers the new one: ⏎ keeps it.
        if case .renaming(let prompted, let field) = state.mode, prompted == id, field.text == previousTitle,
            field.selection == 0..<field.characters.count
        {
            state.mode = .renaming(id: id, field: TextField(title, maximumLength: state.titleMaximumLength, selected: true))
        }
        if state.playback?.memoID == id { state.playback?.title = title }
        if state.sortOrder == .byTitle { state.sortMemos() }
        state.undoStack.append(.renamed(id: id, previousTitle: previousTitle, title: title))
        state.mention("Titled “\(title)” from its words (was “\(previousTitle)”). Press u to undo.")
    }

    /// Memo `id`'s transcript changed: the view showing it and the filter's matches are read again.
    private static func changed(_ id: Int64, _ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        if state.mode == .transcript, state.transcriptView?.memoID == id { effects.append(.loadTranscript(memoID: id)) }
        return effects + searchAgain(state)
    }

    /// The transcripts searched again for the filter's spoken words (a transcript changed), if it has any.
    static func searchAgain(_ state: AppState) -> [Effect] {
        let query = MemoQuery(state.filter)
        guard query.problem == nil, !query.spokenText.isEmpty else { return [] }
        return [.searchTranscripts(query: query.spokenText)]
    }
}
