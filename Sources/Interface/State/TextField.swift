/// A one-line text editor for prompts, by grapheme cluster: inserting, deleting and
/// moving never splits an accented letter, a CJK character or an emoji.
public struct TextField: Sendable, Hashable {
    public private(set) var characters: [Character]
    /// Insertion point, 0…characters.count.
    public private(set) var cursor: Int

    /// Longest text accepted, in characters.
    public let maximumLength: Int

    /// The whole text is selected (as a prompt that offers a title opens): a character
    /// replaces it, ⌫ or Delete clears it, a movement key ends the selection (← and Home at
    /// the start, → and End at the end).
    public private(set) var isSelected = false

    /// The limit of a prompt that is not a title (the filter); a title's is the library's
    /// (`AppState.titleMaximumLength`).
    public static let defaultMaximumLength = 200

    public init(_ text: String = "", maximumLength: Int = Self.defaultMaximumLength, selected: Bool = false) {
        self.maximumLength = max(0, maximumLength)
        characters = Array(text.prefix(self.maximumLength))
        cursor = characters.count
        isSelected = selected && !characters.isEmpty
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
        switch key {
        case .character(let character):
            guard !character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) else { return true }
            characters = []
            cursor = 0
            insert(character)
        case .backspace, .delete, .clearToStart:
            characters = []
            cursor = 0
        case .left, .home: cursor = 0
        case .right, .end: cursor = characters.count
        default: return false
        }
        isSelected = false
        return true
    }

    private mutating func insert(_ character: Character) {
        guard characters.count < maximumLength else { return }
        if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { return }
        characters.insert(character, at: cursor)
        cursor += 1
    }
}
