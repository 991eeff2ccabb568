/// Search words as the index's full-text tokenizer (FTS5 `unicode61`) sees them: runs of
/// letters and digits, lower-cased; everything else separates. The library searches with them,
/// the app marks the word of a match it shows with them.
public enum TranscriptTokens {
    public static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }
}
