/// Word error rate: (substitutions + deletions + insertions) ÷ reference words, by the minimum
/// edit distance between the word sequences (as NIST's sclite counts it, without alignment output).
public struct WordErrorRate: Sendable, Equatable {
    /// Edits needed to turn the reference into the hypothesis.
    public var errors: Int
    /// Words in the reference.
    public var referenceWords: Int

    public init(errors: Int, referenceWords: Int) {
        self.errors = errors
        self.referenceWords = referenceWords
    }

    /// The rate (0 is perfect; above 1 when the hypothesis adds many words).
    public var rate: Double {
        referenceWords == 0 ? (errors == 0 ? 0 : 1) : Double(errors) / Double(referenceWords)
    }

    /// The rate of `hypothesis` against `reference`, words compared lower-cased.
    public static func of(reference: [String], hypothesis: [String]) -> WordErrorRate {
        let reference = reference.map { $0.lowercased() }
        let hypothesis = hypothesis.map { $0.lowercased() }
        var previous = Array(0...hypothesis.count)
        var current = previous
        for (row, referenceWord) in reference.enumerated() {
            current[0] = row + 1
            for (column, hypothesisWord) in hypothesis.enumerated() {
                let substitution = previous[column] + (referenceWord == hypothesisWord ? 0 : 1)
                current[column + 1] = min(substitution, previous[column + 1] + 1, current[column] + 1)
            }
            swap(&previous, &current)
        }
        return WordErrorRate(errors: previous[hypothesis.count], referenceWords: reference.count)
    }

    /// Two counts summed: a corpus's rate is its total errors over its total reference words.
    public static func + (left: WordErrorRate, right: WordErrorRate) -> WordErrorRate {
        WordErrorRate(errors: left.errors + right.errors, referenceWords: left.referenceWords + right.referenceWords)
    }
}

/// A CMU Sphinx `transcription` file: one utterance a line, `<s> words </s> (file-id)`.
public enum SphinxTranscriptionFile {
    /// File id → reference words, sentence markers removed.
    public static func parse(_ text: String) -> [String: [String]] {
        var references: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { continue }
            let id = String(line[line.index(after: open)..<close]).trimmingCharacters()
            let words = line[..<open].split(separator: " ").map(String.init).filter { $0 != "<s>" && $0 != "</s>" }
            references[id] = words
        }
        return references
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
