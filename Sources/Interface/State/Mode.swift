/// What the keyboard is talking to right now.
public enum Mode: Sendable, Hashable {
    /// The memo table.
    case browsing
    /// Typing a `/` filter.
    case filtering(TextField)
    /// The rename prompt for memo `id`.
    case renaming(id: Int64, field: TextField)
    /// The export prompt for memo `id`: the path of the file to write (`E`).
    case exporting(id: Int64, field: TextField)
    /// The URL prompt of a network stream to play (`o`).
    case openingStream(TextField)
    /// "Purge …? (y/N)" for memo `id` in Recently Deleted.
    case confirmingPurge(id: Int64)
    /// "Stop, save and quit? (y/N)" while recording.
    case confirmingQuit
    /// "Trim …? (y/N)", "Split …? (y/N)" or "Cut each pause …? (y/N)" (`X`, `S`, `Z`).
    case confirmingEdit(EditRequest)
    /// The key list.
    case help
    /// The Recently Deleted list.
    case recentlyDeleted
    /// The input picker; `choices` is `nil` while they are being listed.
    case pickingInput(choices: [InputChoice]?)
    /// The playback-device picker (`O`); `choices` is `nil` while they are being listed.
    case pickingOutput(choices: [OutputChoice]?)
    /// The settings panel (voice activation and its replay, then the noise alert), `field` selected.
    case voiceSettings(SettingsField)
    /// The selected memo's transcript (`AppState.transcriptView`).
    case transcript
    /// Everything known about memo `id` (`I`): its file, format, levels and state.
    case details(id: Int64)
    /// The label prompt of memo `memoID`'s marker at `time` (`B` while it plays).
    case labelingMarker(memoID: Int64, time: Double, field: TextField)
    /// The tags prompt of memo `id` (`#`): `+tag -tag`, or the whole list.
    case tagging(id: Int64, field: TextField)
}

/// One row of the settings panel (`V`): voice activation's parameters, its replay, then the
/// noise alert's.
public enum SettingsField: Sendable, Hashable, CaseIterable {
    case voice(VoiceParameters.Field)
    case replay(ReplayParameters.Field)
    case alert(NoiseAlertParameters.Field)

    /// The panel's rows, top to bottom.
    public static let allCases: [SettingsField] =
        VoiceParameters.Field.allCases.map { .voice($0) } + ReplayParameters.Field.allCases.map { .replay($0) }
        + NoiseAlertParameters.Field.allCases.map { .alert($0) }

    /// The row's place in `allCases`.
    public var index: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public var label: String {
        switch self {
        case .voice(let field): field.label
        case .replay(let field): field.label
        case .alert(let field): field.label
        }
    }

    public var explanation: String {
        switch self {
        case .voice(let field): field.explanation
        case .replay(let field): field.explanation
        case .alert(let field): field.explanation
        }
    }
}

/// A line for the status bar.
public struct StatusMessage: Sendable, Hashable {
    /// `info` and `error` come from actions; `warning` is the input's diagnosis and `alert`
    /// the noise alert (`AppState.statusLine`), never stored in `AppState.status`.
    public enum Kind: Sendable, Hashable { case info, warning, error, alert }

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
    /// Memo `id` was renamed from `previousTitle` to `title`: undone only while it still has `title`.
    case renamed(id: Int64, previousTitle: String, title: String)
    /// Memo `originalID` was trimmed or split into `madeIDs`: undone by bringing it back from
    /// Recently Deleted and moving those there.
    case edited(originalID: Int64, title: String, madeIDs: [Int64])
    /// Memo `id`'s tags or star changed (`#`, `*`) from `previousTags` and `previousStarred`.
    case retagged(id: Int64, title: String, previousTags: [String], previousStarred: Bool)

    /// The status line when an undo finds the memo changed by another process since.
    public static func changedElsewhere(_ title: String, now current: String?) -> String {
        guard let current else { return "“\(title)” was deleted or purged elsewhere since; not undone." }
        return "“\(title)” was renamed elsewhere since (now “\(current)”); not undone."
    }

    /// The status line when a delete's undo finds the memo no longer in Recently Deleted.
    public static func restoredElsewhere(_ title: String) -> String {
        "“\(title)” was restored or purged elsewhere since; not undone."
    }
}
