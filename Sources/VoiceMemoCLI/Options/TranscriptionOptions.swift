/// `voicememo transcribe MEMO [--json] [--again]`.
public struct TranscribeOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// `--json`: one object with the words and their times.
    public var json: Bool
    /// `--again`: transcribe even when a current transcript is stored.
    public var again: Bool

    public init(memo: String, json: Bool = false, again: Bool = false) {
        self.memo = memo
        self.json = json
        self.again = again
    }
}

/// `voicememo search WORDS [--json]`.
public struct SearchOptions: Sendable, Equatable {
    /// What to look for, as given.
    public var words: String
    /// `--json`: an array of hits.
    public var json: Bool

    public init(words: String, json: Bool = false) {
        self.words = words
        self.json = json
    }
}

/// `transcribe = auto|manual|off` in the config file.
public enum TranscribeMode: String, Sendable, Hashable, CaseIterable {
    /// Memos are transcribed in the background once saved (the app), and on request.
    case auto
    /// Only on request (`voicememo transcribe`).
    case manual
    /// Never: `voicememo transcribe` refuses.
    case off
}
