
/// A memo the `/` filter found by its spoken words: where the first matching word is and the
/// words around it (the library's `TranscriptHit`, without the memo).
public struct TranscriptMatch: Sendable, Hashable {
    public var memoID: Int64
    /// Seconds into the memo where the first matching word starts: ⏎ plays from here.
    public var time: Double
    /// The words around it, `…` where the transcript goes on.
    public var snippet: String

    public init(memoID: Int64, time: Double, snippet: String) {
        self.memoID = memoID
        self.time = time
        self.snippet = snippet
    }
}

/// What the index holds for one memo, as the transcript view shows it.
public enum TranscriptContent: Sendable, Hashable {
    /// The words with their times (possibly none: nothing was recognised).
    case words([SpokenWord])
    /// Not transcribed (yet), or transcribed from an earlier version of the file.
    case missing
    /// Transcription was tried and failed, for this reason.
    case failed(String)
}

/// The transcript view (`T`): which memo, what was loaded, where it is scrolled.
public struct TranscriptViewState: Sendable, Hashable {
    public var memoID: Int64
    public var title: String
    /// `nil` while the runner reads it.
    public var content: TranscriptContent?
    /// The first line shown when the view does not follow the play head.
    public var scroll = 0
    /// Whether the view keeps the word being played in sight (until ↑ ↓ scroll by hand).
    public var followsPlayback = true
    /// The word cursor (`w` `b`), an index into `words`; `nil` until it is moved.
    public var cursor: Int?
    /// Where the selection (`v`) began; the selection runs from it to the cursor.
    public var anchor: Int?

    public init(memoID: Int64, title: String) {
        self.memoID = memoID
        self.title = title
    }

    /// The words, when there are some.
    public var words: [SpokenWord] {
        if case .words(let words) = content { return words }
        return []
    }

    /// The selected words' indices (anchor to cursor, either way), when a selection is open.
    public var selection: ClosedRange<Int>? {
        guard let anchor, let cursor else { return nil }
        return min(anchor, cursor)...max(anchor, cursor)
    }
}

/// What the app's background transcription job reports, on the UI queue.
public enum TranscriptionEvent: Sendable, Hashable {
    /// It began memo `memoID`; `waiting` more are left after it.
    case started(memoID: Int64, title: String, waiting: Int)
    /// This much of the memo is done, 0…1.
    case progress(memoID: Int64, fraction: Double)
    /// The memo's transcript is stored, with this many words.
    case finished(memoID: Int64, title: String, words: Int)
    /// The memo's transcript is stored, with this many words, and the memo, which had its
    /// default title `previousTitle`, is now titled `title` from its first words (`auto_title`).
    case titled(memoID: Int64, previousTitle: String, title: String, words: Int)
    /// The memo could not be transcribed; the job goes on with the next.
    case failed(memoID: Int64, title: String, problem: TranscriptionProblem)
    /// The memo was deleted while it was transcribed: nothing stored, the job goes on.
    case skipped(memoID: Int64)
    /// Nothing is left to transcribe.
    case idle
    /// The job cannot run: the model is missing or broken, or the library cannot be opened.
    case unavailable(TranscriptionUnavailable)
}

/// Why one memo could not be transcribed, as the status line says it (`message`).
public enum TranscriptionProblem: Sendable, Hashable {
    /// Its file is at fault (the recogniser's or the file's words): remembered, not tried again.
    case file(detail: String)
    /// It was transcribed, but the transcript could not be stored (the index's words).
    case notStored(detail: String)

    public var message: String {
        switch self {
        case .file(let detail): detail
        case .notStored(let detail): "its transcript could not be stored: \(detail)"
        }
    }
}

/// Why the background transcription job cannot run, as the status line says it (`message`).
public enum TranscriptionUnavailable: Sendable, Hashable {
    /// The speech model is missing or cannot be loaded (the recogniser's words, with what to
    /// install).
    case model(detail: String)
    /// The job's own connection to the library cannot be opened (the library's words).
    case library(detail: String)

    public var message: String {
        switch self {
        case .model(let detail): detail
        case .library(let detail): "the library cannot be opened for transcription: \(detail)"
        }
    }
}

/// The background job as the screen shows it.
public struct BackgroundTranscription: Sendable, Hashable {
    public struct Current: Sendable, Hashable {
        public var memoID: Int64
        public var title: String
        public var fraction: Double
    }

    /// Whether the app transcribes in the background (`transcribe = auto`).
    public var isEnabled = false
    /// The memo being transcribed now.
    public var current: Current?
    /// Memos waiting after it.
    public var waiting = 0
    /// Why the job cannot run, once it said so.
    public var unavailable: TranscriptionUnavailable?

    public init(isEnabled: Bool = false) {
        self.isEnabled = isEnabled
    }

    mutating func apply(_ event: TranscriptionEvent) {
        switch event {
        case .started(let memoID, let title, let waiting):
            current = Current(memoID: memoID, title: title, fraction: 0)
            self.waiting = waiting
        case .progress(let memoID, let fraction):
            if current?.memoID == memoID { current?.fraction = min(max(fraction, 0), 1) }
        case .finished, .titled, .failed, .skipped:
            current = nil
        case .idle:
            current = nil
            waiting = 0
        case .unavailable(let reason):
            current = nil
            waiting = 0
            unavailable = reason
        }
    }
}

extension AppState {
    /// Whether the background transcription must wait: a recording is being started, runs
    /// (paused included), is being saved, or a voice-activated take is being recorded.
    /// The app's loop pauses the job while this holds, so it never competes with a recording.
    public var pausesTranscription: Bool {
        recording != .idle || voice.isRecordingTake
            || hasWork { kind in
                switch kind {
                case .startingRecording, .saving: true
                default: false
                }
            }
    }

    /// The background job's line for the status row when nothing else is said there:
    /// "Transcribing “Standup” 40 % · 2 more", "Transcription paused while recording".
    public var transcriptionLine: String? {
        guard let current = transcription.current else { return nil }
        let percent = Int((current.fraction * 100).rounded(.down))
        let more = transcription.waiting > 0 ? " · \(transcription.waiting) more" : ""
        let title = currentTitle(ofMemo: current.memoID, else: current.title)
        if pausesTranscription {
            return "Transcription of “\(title)” paused while recording (\(percent) %)\(more)"
        }
        return "Transcribing “\(title)” \(percent) %\(more)"
    }

    /// Memo `id`'s title now (renamed since the job read it, or given at its save), else `title`.
    func currentTitle(ofMemo id: Int64, else title: String) -> String {
        if let memo = memos.first(where: { $0.id == id }) { return memo.title }
        if let saving = savingRecording, saving.id == id { return saving.title }
        return title
    }

    /// The background job's line on a status row of its own, under a message that holds the
    /// status line (a silent input's advice, a notice): in the memo table, where the layout
    /// gives it the second row. A message that needs both rows keeps them.
    public var transcriptionBesideStatus: String? {
        guard mode == .browsing, let status = statusLine, let line = transcriptionLine else { return nil }
        return DisplayWidth.of(" " + status.text) <= width ? line : nil
    }

    /// The transcript match for memo `id` under the current filter, if its words matched it.
    public func transcriptMatch(for id: Int64) -> TranscriptMatch? {
        guard !filter.isEmpty, !transcriptMatchQuery.isEmpty, transcriptMatchQuery == MemoQuery(filter).spokenText else { return nil }
        return transcriptMatches[id]
    }
}
