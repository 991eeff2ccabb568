/// What the keyboard is talking to right now.
public enum Mode: Sendable, Hashable {
    /// The memo table.
    case browsing
    /// Typing a `/` filter.
    case filtering(TextField)
    /// The rename prompt for memo `id`.
    case renaming(id: Int64, field: TextField)
    /// "Delete …? (y/N)" for memo `id`.
    case confirmingDelete(id: Int64)
    /// "Purge …? (y/N)" for memo `id` in Recently Deleted.
    case confirmingPurge(id: Int64)
    /// "Stop, save and quit? (y/N)" while recording.
    case confirmingQuit
    /// The key list.
    case help
    /// The Recently Deleted list.
    case recentlyDeleted
    /// The input picker; `choices` is `nil` while they are being listed.
    case pickingInput(choices: [InputChoice]?)
    /// The voice-activation settings panel, `field` selected.
    case voiceSettings(VoiceParameters.Field)
    /// The selected memo's transcript (`AppState.transcriptView`).
    case transcript
}

/// A line for the status bar.
public struct StatusMessage: Sendable, Hashable {
    /// `info` and `error` come from actions; `warning` is the input's diagnosis
    /// (`AppState.statusLine`), never stored in `AppState.status`.
    public enum Kind: Sendable, Hashable { case info, warning, error }

    public var text: String
    public var kind: Kind
    /// When an info message goes away (errors stay until replaced or dismissed).
    public var expires: Double

    /// Seconds an info message stays.
    public static let infoLifetime = 4.0
    /// Seconds an info message stays at least, even when a new finding about the input
    /// wants the line: long enough to read a short sentence.
    public static let infoReadingTime = 1.5

    /// When an info message appeared.
    var shownAt: Double { expires - Self.infoLifetime }

    /// Whether an info message has been up long enough to read at `time`.
    func hasBeenReadable(at time: Double) -> Bool {
        kind == .info && time >= shownAt + Self.infoReadingTime
    }

    public init(text: String, kind: Kind, expires: Double = .infinity) {
        self.text = text
        self.kind = kind
        self.expires = expires
    }
}

/// Something `u` can take back.
public enum UndoEntry: Sendable, Hashable {
    case deleted(id: Int64, title: String)
    case renamed(id: Int64, previousTitle: String)
}
