import Metering

/// The in and out points `(` and `)` set at the play head of memo `memoID`, seconds from its
/// start: what `X` keeps. A point not set is the memo's start (in) or end (out).
public struct EditPoints: Sendable, Hashable {
    public var memoID: Int64
    public var inPoint: Double?
    public var outPoint: Double?

    public init(memoID: Int64, inPoint: Double? = nil, outPoint: Double? = nil) {
        self.memoID = memoID
        self.inPoint = inPoint
        self.outPoint = outPoint
    }
}

/// An edit `X`, `S`, `Z` or `F` asks for (then `y` confirms it): the library's trim, split,
/// silence removal or enhance of memo `memoID`, seconds from its start.
public enum EditRequest: Sendable, Hashable {
    /// Keep `start..<end` of the memo.
    case trim(memoID: Int64, title: String, start: Double, end: Double)
    /// Cut the memo in two at `at`.
    case split(memoID: Int64, title: String, at: Double)
    /// Shorten every pause of the memo (`SilenceRemoval`'s defaults, as `trim --remove-silences`).
    case removeSilences(memoID: Int64, title: String)
    /// The memo with its noise suppressed (`voicememo enhance`).
    case enhance(memoID: Int64, title: String)
    /// The memo without the words chosen in the transcript view (`x` there).
    case cutWords(memoID: Int64, title: String, span: WordSpan)
    /// Only the words chosen in the transcript view (`K` there), as a trim keeps them.
    case keepWords(memoID: Int64, title: String, span: WordSpan)

    public var memoID: Int64 {
        switch self {
        case .trim(let id, _, _, _), .split(let id, _, _), .removeSilences(let id, _), .enhance(let id, _),
            .cutWords(let id, _, _), .keepWords(let id, _, _):
            id
        }
    }

    public var title: String {
        switch self {
        case .trim(_, let title, _, _), .split(_, let title, _), .removeSilences(_, let title), .enhance(_, let title),
            .cutWords(_, let title, _), .keepWords(_, let title, _):
            title
        }
    }

    /// What the edit does, as the status line says while it runs: "Trimming “Lecture”".
    public var inProgress: String {
        switch self {
        case .trim: "Trimming “\(title)”"
        case .split: "Splitting “\(title)”"
        case .removeSilences: "Removing the pauses of “\(title)”"
        case .enhance: "Enhancing “\(title)”"
        case .cutWords(_, _, let span): "Cutting \(span.quoted) out of “\(title)”"
        case .keepWords(_, _, let span): "Keeping only \(span.quoted) of “\(title)”"
        }
    }

    /// The same in a word, for the progress line of the work: "trimming".
    public var verb: String {
        switch self {
        case .trim: "trimming"
        case .split: "splitting"
        case .removeSilences: "removing pauses"
        case .enhance: "enhancing"
        case .cutWords: "cutting"
        case .keepWords: "trimming"
        }
    }
}

/// Words chosen in the transcript view, and the pauses around them where an edit may fall: the
/// library cuts at the quietest moment of each pause, never inside a word.
public struct WordSpan: Sendable, Hashable {
    /// From the end of the word before (the memo's start when there is none) to the first chosen
    /// word's start.
    public var pauseBefore: ClosedRange<Double>
    /// From the last chosen word's end to the next word's start (the memo's end when there is none).
    public var pauseAfter: ClosedRange<Double>
    /// How many words.
    public var count: Int
    /// The words, as messages quote them.
    public var text: String

    public init(pauseBefore: ClosedRange<Double>, pauseAfter: ClosedRange<Double>, count: Int, text: String) {
        self.pauseBefore = pauseBefore
        self.pauseAfter = pauseAfter
        self.count = count
        self.text = text
    }

    /// “um sorry let me…” (cut at 30 characters), or “3 words” when there is no room.
    var quoted: String {
        "“" + (text.count > 30 ? String(text.prefix(29)) + "…" : text) + "”"
    }
}

/// What an edit made: the original (now in Recently Deleted) and the new memos.
public struct EditOutcome: Sendable, Hashable {
    public var request: EditRequest
    public var originalID: Int64
    public var title: String
    /// The original's length in seconds.
    public var originalDuration: Double
    public var made: [MemoRow]
    /// The audio was decoded and encoded again (a lossy format).
    public var reencoded: Bool

    public init(request: EditRequest, originalID: Int64, title: String, originalDuration: Double, made: [MemoRow], reencoded: Bool) {
        self.request = request
        self.originalID = originalID
        self.title = title
        self.originalDuration = originalDuration
        self.made = made
        self.reencoded = reencoded
    }
}

/// The waveform band's memo and its peak envelope, as the runner read it from the index
/// (`Action.waveformLoaded`). The app asks for the envelope of `AppState.wantedWaveform`
/// whenever that changes (a subscription, like `pausesTranscription`: the runner compares
/// after each action), so that moving the selection emits no effect of its own.
public struct WaveformState: Sendable, Hashable {
    public var memoID: Int64
    /// `nil` when the memo has none yet (being recorded) or it could not be read.
    public var envelope: PeakEnvelope?

    public init(memoID: Int64, envelope: PeakEnvelope?) {
        self.memoID = memoID
        self.envelope = envelope
    }
}
