/// A one-line text editor for prompts, by grapheme cluster: inserting, deleting and
/// moving never splits an accented letter, a CJK character or an emoji.
public struct TextField: Sendable, Hashable {
    public private(set) var characters: [Character]
    /// Insertion point, 0…characters.count.
    public private(set) var cursor: Int

    /// Longest text accepted, in characters.
    public let maximumLength: Int

    /// The characters selected, if any: the whole text as a prompt that offers a title opens,
    /// the name part of a path as the export prompt opens (`folder/`**`Standup`**`.flac`). A
    /// character replaces them, ⌫ or Delete removes them, Ctrl-U clears the whole line, a
    /// movement key ends the selection (← at its start, → at its end, Home and End at the
    /// line's).
    public private(set) var selection: Range<Int>?

    /// Whether anything is selected.
    public var isSelected: Bool { selection != nil }

    /// The limit of a prompt that is not a title (the filter); a title's is the library's
    /// (`AppState.titleMaximumLength`).
    public static let defaultMaximumLength = 200

    public init(_ text: String = "", maximumLength: Int = Self.defaultMaximumLength, selected: Bool = false) {
        self.maximumLength = max(0, maximumLength)
        characters = Array(text.prefix(self.maximumLength))
        cursor = characters.count
        selection = selected && !characters.isEmpty ? 0..<characters.count : nil
    }

    /// `text` with the characters of `range` selected (clamped to the text; none if empty).
    public init(_ text: String, maximumLength: Int = Self.defaultMaximumLength, selecting range: Range<Int>) {
        self.init(text, maximumLength: maximumLength)
        let clamped = range.clamped(to: 0..<characters.count)
        if !clamped.isEmpty {
            selection = clamped
            cursor = clamped.upperBound
        }
    }

    public var text: String { String(characters) }

    /// Applies an editing key; returns whether the key was one.
    @discardableResult
    public mutating func apply(_ key: Key) -> Bool {
        if isSelected { return applyToSelection(key) }
        switch key {
        case .character(let character):
            insert(character)
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .clearToStart:
            characters.removeFirst(cursor)
            cursor = 0
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, characters.count)
        case .home: cursor = 0
        case .end: cursor = characters.count
        default: return false
        }
        return true
    }

    private mutating func applyToSelection(_ key: Key) -> Bool {
        guard let range = selection else { return false }
        switch key {
        case .character(let character):
            guard !character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) else { return true }
            characters.removeSubrange(range)
            cursor = range.lowerBound
            insert(character)
        case .backspace, .delete:
            characters.removeSubrange(range)
            cursor = range.lowerBound
        case .clearToStart:
            characters = []
            cursor = 0
        case .left: cursor = range.lowerBound
        case .right: cursor = range.upperBound
        case .home: cursor = 0
        case .end: cursor = characters.count
        default: return false
        }
        selection = nil
        return true
    }

    private mutating func insert(_ character: Character) {
        guard characters.count < maximumLength else { return }
        if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { return }
        characters.insert(character, at: cursor)
        cursor += 1
    }
}
