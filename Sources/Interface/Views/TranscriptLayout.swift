import Vocabulary

/// How a transcript is laid out in lines for a width, and which part of it is in view: one
/// pure function for the view that draws it and the reducer that scrolls it.
///
/// Words flow into lines as wide as the view; a pause of a second or more starts a new line,
/// so lines follow the speaker's phrases. Each line starts with its first word's time when
/// the view is at least 40 columns wide. In a meeting memo's transcript a change of speaker
/// starts a new line too, and the first line of each speaker's stretch starts with its name
/// ("Me:", "Them:").
public enum TranscriptLayout {
    /// One line: its words (indices into the transcript) and when its first word starts.
    public struct Line: Sendable, Hashable {
        public var words: Range<Int>
        public var start: Double
        /// The speaker this line names before its words: the first line of a stretch of one
        /// speaker's words; `nil` for every other line, and in a transcript without speakers.
        public var speaker: Speaker? = nil
    }

    /// Columns a speaker's name takes before a line's words ("Them: ").
    static func labelWidth(_ speaker: Speaker) -> Int {
        DisplayWidth.of(speaker.label) + 2
    }

    /// A pause this long between two words starts a new line.
    static let phrasePause = 1.0

    /// Columns the time before each line takes ("00:00:02  "), 0 below 40 columns.
    static func timeWidth(forWidth width: Int) -> Int {
        width >= 40 ? 10 : 0
    }

    /// The lines for a view `width` columns wide.
    public static func lines(_ words: [SpokenWord], width: Int) -> [Line] {
        let room = max(width - 2 - timeWidth(forWidth: width), 1)
        var lines: [Line] = []
        var first = 0
        var used = 0
        var label: Speaker?
        for (index, word) in words.enumerated() {
            let length = DisplayWidth.of(TerminalText.safe(word.word))
            let pause = index > first ? word.start - words[index - 1].end : 0
            let turn = index > 0 && word.speaker != words[index - 1].speaker
            if index > first, used + 1 + length > room || pause >= phrasePause || turn {
                lines.append(Line(words: first..<index, start: words[first].start, speaker: label))
                first = index
                used = 0
            }
            if index == first {
                label = index == 0 || turn ? word.speaker : nil
                used = label.map(labelWidth) ?? 0
            }
            used += (index > first ? 1 : 0) + length
        }
        if first < words.count { lines.append(Line(words: first..<words.count, start: words[first].start, speaker: label)) }
        return lines
    }

    /// The word being heard at `elapsed` seconds: the last one that has started.
    public static func currentWord(_ words: [SpokenWord], at elapsed: Double) -> Int? {
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle].start <= elapsed { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// Rows of words the view shows in `area` (its first row is the title).
    static func rows(in area: Rect) -> Int {
        max(area.height - 1, 0)
    }

    /// The word to highlight in `state`'s transcript view: the one being heard while that memo plays.
    static func highlightedWord(_ state: AppState) -> Int? {
        guard let view = state.transcriptView, let playback = state.playback, playback.memoID == view.memoID else { return nil }
        return currentWord(view.words, at: playback.elapsed)
    }

    /// The first line in view: the play head's line a third of the way down while the memo
    /// plays and the view follows it, else where it was scrolled; always within the lines.
    public static func top(_ state: AppState) -> Int {
        guard let view = state.transcriptView else { return 0 }
        let lines = lines(view.words, width: state.layout.body.width)
        let rows = rows(in: state.layout.body)
        let last = max(lines.count - rows, 0)
        if view.followsPlayback, let word = highlightedWord(state),
            let line = lines.firstIndex(where: { $0.words.contains(word) })
        {
            return min(max(line - rows / 3, 0), last)
        }
        return min(max(view.scroll, 0), last)
    }
}
