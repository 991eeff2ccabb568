/// Why a memo is in Recently Deleted: for the library's index, `list --deleted` and the app alike.
///
/// Stored in the index as its `storedText` (`deleted_reason`, schema 7); a row deleted before that
/// column existed has none and reads as `.deleted`. Text this build does not know (written by a
/// newer one) reads as `.unknown`, shown as a plain "deleted".
public enum DeletionReason: Sendable, Hashable {
    /// Deleted by the user (`d` in the app, `voicememo delete`), or before reasons were kept.
    case deleted
    /// The original of an edit: the edit's memo took its place.
    case replaced(by: MemoEdit)
    /// A memo an edit made, moved here when that edit was undone (the original came back).
    case undone(MemoEdit)
    /// Its file was found in the trash folder by start-up maintenance (a copy put there by hand,
    /// or a delete, restore or edit stopped before it was written down).
    case foundInTrash
    /// Text a newer build wrote; kept as it was.
    case unknown(String)

    /// What the index stores: `deleted`, `trim`, `undone-trim`, `found-in-trash`, …
    public var storedText: String {
        switch self {
        case .deleted: "deleted"
        case .replaced(let edit): edit.storedText
        case .undone(let edit): Self.undonePrefix + edit.storedText
        case .foundInTrash: "found-in-trash"
        case .unknown(let text): text
        }
    }

    /// The reason stored as `text`; `nil` (a row from before reasons were kept) is `.deleted`.
    public init(storedText text: String?) {
        guard let text else {
            self = .deleted
            return
        }
        switch text {
        case "deleted": self = .deleted
        case "found-in-trash": self = .foundInTrash
        default:
            if text.hasPrefix(Self.undonePrefix), let edit = MemoEdit(storedText: String(text.dropFirst(Self.undonePrefix.count))) {
                self = .undone(edit)
            } else if let edit = MemoEdit(storedText: text) {
                self = .replaced(by: edit)
            } else {
                self = .unknown(text)
            }
        }
    }

    /// A few words for a list's column: "deleted", "before trim", "before removing pauses",
    /// "undone trim", "found in trash".
    public var label: String {
        switch self {
        case .deleted, .unknown: "deleted"
        case .replaced(let edit): "before " + edit.gerund
        case .undone(let edit): "undone " + edit.noun
        case .foundInTrash: "found in trash"
        }
    }

    /// A sentence for a memo's details: what put it there and what became of it.
    public var explanation: String {
        switch self {
        case .deleted: "deleted"
        case .replaced(let edit): "before \(edit.gerund): \(edit.madeMemos) replaced it"
        case .undone(let edit): "undone \(edit.noun): made by it, and the original is back in its place"
        case .foundInTrash: "its file was found in the trash folder"
        case .unknown(let text): "deleted (a newer VoiceMemo gave the reason “\(text)”)"
        }
    }

    private static let undonePrefix = "undone-"
}

/// The edits that replace a memo with new ones and send the original to Recently Deleted.
public enum MemoEdit: String, Sendable, Hashable, CaseIterable {
    case trim
    case split
    case removePauses = "remove-pauses"
    case enhance
    /// Words cut out of the memo (the transcript view's `x`).
    case cut

    public var storedText: String { rawValue }

    public init?(storedText: String) {
        self.init(rawValue: storedText)
    }

    /// "trim", "split", "pause removal", "enhance".
    public var noun: String {
        switch self {
        case .trim: "trim"
        case .split: "split"
        case .removePauses: "pause removal"
        case .enhance: "enhance"
        case .cut: "cut"
        }
    }

    /// What follows "before": "trim", "split", "removing pauses", "enhance".
    var gerund: String {
        self == .removePauses ? "removing pauses" : noun
    }

    /// What the edit made, as a memo's details name it.
    var madeMemos: String {
        switch self {
        case .trim: "the trimmed memo"
        case .split: "its two halves"
        case .removePauses: "the memo without pauses"
        case .enhance: "the enhanced memo"
        case .cut: "the memo without the cut words"
        }
    }
}
