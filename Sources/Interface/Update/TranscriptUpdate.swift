
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

    /// The filter's text changed: search the transcripts for it (or forget the matches).
    static func filterChanged(_ state: inout AppState) -> [Effect] {
        guard !state.filter.isEmpty else {
            state.transcriptMatches = [:]
            state.transcriptMatchQuery = ""
            return []
        }
        return [.searchTranscripts(query: state.filter)]
    }

    /// Applies the runner's and the job's answers; other actions are not its business.
    static func apply(_ action: Action, to state: inout AppState) -> [Effect] {
        switch action {
        case .transcriptMatchesFound(let query, let matches):
            guard query == state.filter else { return [] }
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

    /// Memo `id`'s transcript changed: the view showing it and the filter's matches are read again.
    private static func changed(_ id: Int64, _ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        if state.mode == .transcript, state.transcriptView?.memoID == id { effects.append(.loadTranscript(memoID: id)) }
        if !state.filter.isEmpty { effects.append(.searchTranscripts(query: state.filter)) }
        return effects
    }
}
