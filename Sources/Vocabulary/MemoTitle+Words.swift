/// A title made from what was said: the first words of a memo's transcript, for a memo still at
/// its default title (`auto_title`). Pure.
extension MemoTitle {
    /// At most this many words.
    public static let wordsFromTranscript = 6
    /// At most this many characters; the words stop at the last whole one that fits.
    public static let charactersFromTranscript = 40

    /// Sounds that fill a pause and say nothing ("um", "uh"): left out of a title.
    static let fillerWords: Set<String> = [
        "um", "umm", "uh", "uhh", "uhm", "er", "erm", "ah", "ahh", "eh", "hm", "hmm", "mm", "mmm", "mhm",
    ]

    /// The title `words` (a transcript's, in order) give: the first ones that say something —
    /// fillers and words of punctuation alone left out — up to `wordsFromTranscript` words and
    /// `charactersFromTranscript` characters, ending at a whole word (a first word longer than
    /// that is cut and ends in "…"), without control characters, its first letter and the word
    /// "I" in capitals, a comma or full stop at its end dropped. `nil` when nothing is left:
    /// the memo keeps its title.
    public static func fromWords(_ words: [String]) -> String? {
        var kept: [String] = []
        var length = 0
        for raw in words {
            for word in cleaned(raw) {
                guard kept.count < wordsFromTranscript else { break }
                let added = (kept.isEmpty ? 0 : 1) + word.count
                if length + added > charactersFromTranscript {
                    if kept.isEmpty { kept = [String(word.prefix(charactersFromTranscript - 1)) + "…"] }
                    return finished(kept)
                }
                kept.append(word)
                length += added
            }
            if kept.count >= wordsFromTranscript { break }
        }
        return finished(kept)
    }

    /// The words of one transcript entry that go into a title: split at white space, control
    /// characters removed, fillers and punctuation alone dropped, "i" and "i'm" capitalised.
    private static func cleaned(_ raw: String) -> [String] {
        // Line breaks and tabs part words; other control and format characters go.
        let visible = String(String.UnicodeScalarView(raw.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
            if scalar.properties.isWhitespace { return " " }
            let category = scalar.properties.generalCategory
            return category == .control || category == .format ? nil : scalar
        }))
        return visible.split(whereSeparator: { $0.isWhitespace }).compactMap { part -> String? in
            let letters = part.filter { $0.isLetter || $0.isNumber }
            guard !letters.isEmpty, !fillerWords.contains(letters.lowercased()) else { return nil }
            let word = String(part)
            if word == "i" || word.hasPrefix("i'") { return "I" + word.dropFirst() }
            return word
        }
    }

    /// `kept` as a title: joined, a trailing `,` `.` `;` `:` dropped, the first letter a capital.
    private static func finished(_ kept: [String]) -> String? {
        var title = kept.joined(separator: " ")
        while let last = title.last, ",.;:".contains(last) { title.removeLast() }
        guard let first = title.first else { return nil }
        title = first.uppercased() + title.dropFirst()
        return try? accepted(title)
    }
}
