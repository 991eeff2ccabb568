/// Finds the name a person probably meant when they mistyped one.
public enum Suggestion {
    /// The candidate nearest to `text`, or `nil` when none is close enough to be a typo.
    ///
    /// A candidate is close when `text` is a prefix of it (at least two characters), or when
    /// their edit distance (insertions, deletions, substitutions and swaps of neighbours) is at
    /// most a third of the candidate's length, and at least 1. Ties go to the earlier candidate.
    public static func nearest(to text: String, among candidates: [String]) -> String? {
        guard !text.isEmpty else { return nil }
        if text.count >= 2 {
            let extensions = candidates.filter { $0.hasPrefix(text) }
            if extensions.count == 1 { return extensions[0] }
        }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(text, candidate)
            guard distance <= max(1, candidate.count / 3) else { continue }
            if best.map({ distance < $0.distance }) ?? true {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The optimal-string-alignment distance between `first` and `second`.
    static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first)
        let b = Array(second)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(
                    table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, table[i - 2][j - 2] + 1)
                }
                table[i][j] = distance
            }
        }
        return table[a.count][b.count]
    }
}
