import Foundation
import Vocabulary

/// The forms a transcript is exported in, named by the file's extension.
public enum TranscriptFormat: String, Sendable, Hashable, CaseIterable {
    /// Plain text: paragraphs split at long pauses.
    case txt
    /// SubRip subtitles.
    case srt
    /// WebVTT subtitles.
    case vtt
    /// Markdown: the title, then paragraphs each with the time it starts.
    case md

    /// The format `path`'s extension names (`notes.SRT` too), or `nil`.
    public static func named(byExtensionOf path: String) -> TranscriptFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return TranscriptFormat(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// What it is, for messages: "SubRip subtitles (.srt)".
    public var displayName: String {
        switch self {
        case .txt: "plain text (.txt)"
        case .srt: "SubRip subtitles (.srt)"
        case .vtt: "WebVTT subtitles (.vtt)"
        case .md: "Markdown (.md)"
        }
    }
}

/// One subtitle: when it shows, its lines and, in a meeting memo, who speaks them.
public struct SubtitleCue: Sendable, Hashable {
    public var start: Double
    public var end: Double
    public var lines: [String]
    /// The speaker of every word of the cue; `nil` in a memo without speakers.
    public var speaker: Speaker? = nil
}

/// A transcript as a document: plain text, Markdown, or subtitles in cues of at most two lines
/// of `lineLength` characters and `cueSeconds` seconds, split at the pauses between words where
/// there are any. Pure.
///
/// Nothing from the recogniser or a title reaches the file as a control character (Unicode's
/// Cc, Cf and the line and paragraph separators are dropped), and nothing in a word can end a cue
/// early or start a tag: `-->` never appears in a cue's text, and WebVTT's `&`, `<`, `>` are
/// written as entities.
///
/// A meeting memo's transcript names its speakers in each format's usual way: a paragraph of
/// text starts with "Me: " or "Them: ", a Markdown paragraph with "**Me:**" after its time, a
/// SubRip cue's first line with "Me: ", a WebVTT cue with a voice tag (`<v Me>`). A change of
/// speaker ends a paragraph and a cue. A transcript without speakers is written without them.
public enum TranscriptDocument {
    /// Characters a subtitle line holds at most (the common broadcast figure).
    public static let lineLength = 42
    /// Lines a cue holds at most.
    public static let linesPerCue = 2
    /// Seconds a cue lasts at most.
    public static let cueSeconds = 7.0
    /// A pause at least this long between two words ends a cue.
    public static let cuePause = 0.7
    /// A pause at least this long starts a new paragraph in text and Markdown.
    public static let paragraphPause = 2.0

    /// The document of `transcript` in `format`; `title` heads the Markdown.
    public static func text(_ transcript: Transcript, format: TranscriptFormat, title: String, duration: Double) -> String {
        let words = transcript.words.compactMap { word -> TranscriptWord? in
            let cleaned = clean(word.word)
            guard !cleaned.isEmpty, word.start.isFinite, word.end.isFinite else { return nil }
            return TranscriptWord(
                word: cleaned, start: max(0, word.start), end: max(word.start, word.end), speaker: word.speaker)
        }
        switch format {
        case .txt:
            return paragraphs(words).map { speakerPrefix($0.speaker) + $0.text + "\n" }.joined(separator: "\n")
        case .md:
            var text = "# \(markdownEscaped(clean(title)))\n\n"
            text += "_Transcript, \(clock(duration, separator: nil, fraction: false)) long._\n"
            for paragraph in paragraphs(words) {
                let speaker = paragraph.speaker.map { "**\($0.label):** " } ?? ""
                text += "\n**\(clock(paragraph.start, separator: nil, fraction: false))** \(speaker)\(markdownEscaped(paragraph.text))\n"
            }
            return text
        case .srt:
            return cues(words).enumerated().map { index, cue in
                "\(index + 1)\n\(clock(cue.start, separator: ",")) --> \(clock(cue.end, separator: ","))\n"
                    + speakerPrefix(cue.speaker) + cue.lines.joined(separator: "\n") + "\n"
            }.joined(separator: "\n")
        case .vtt:
            return "WEBVTT\n\n" + cues(words).map { cue in
                "\(clock(cue.start, separator: ".")) --> \(clock(cue.end, separator: "."))\n"
                    + (cue.speaker.map { "<v \($0.label)>" } ?? "") + cue.lines.map(vttEscaped).joined(separator: "\n") + "\n"
            }.joined(separator: "\n")
        }
    }

    /// "Me: " before a speaker's paragraph or cue; nothing without a speaker.
    static func speakerPrefix(_ speaker: Speaker?) -> String {
        speaker.map { $0.label + ": " } ?? ""
    }

    /// The words in cues: a cue ends at a pause of `cuePause`, where the speaker changes, or
    /// before a word that would take it past `cueSeconds` or `linesPerCue` lines of
    /// `lineLength` (its first line keeps room for its speaker's "Them: ").
    public static func cues(_ words: [TranscriptWord]) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        var current: [TranscriptWord] = []
        func wrapped(_ words: [String], _ speaker: Speaker?) -> [String] {
            lines(words, firstLineReserve: speakerPrefix(speaker).count)
        }
        func close() {
            guard let first = current.first, let last = current.last else { return }
            cues.append(
                SubtitleCue(
                    start: first.start, end: max(last.end, first.start + 0.001),
                    lines: wrapped(current.map(\.word), first.speaker), speaker: first.speaker))
            current = []
        }
        for word in words {
            if let first = current.first, let last = current.last {
                let paused = word.start - last.end >= cuePause
                let tooLong = word.end - first.start > cueSeconds
                let tooMany = wrapped(current.map(\.word) + [word.word], first.speaker).count > linesPerCue
                if paused || tooLong || tooMany || word.speaker != first.speaker { close() }
            }
            current.append(word)
        }
        close()
        return cues
    }

    /// `words` wrapped into lines of at most `lineLength` characters (a longer word alone), the
    /// first `firstLineReserve` characters shorter.
    static func lines(_ words: [String], firstLineReserve: Int = 0) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            let room = lines.isEmpty ? lineLength - firstLineReserve : lineLength
            if line.isEmpty {
                line = word
            } else if line.count + 1 + word.count <= room {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private struct Paragraph {
        var start: Double
        var text: String
        var speaker: Speaker?
    }

    /// The words in paragraphs split at pauses of `paragraphPause` and where the speaker changes.
    private static func paragraphs(_ words: [TranscriptWord]) -> [Paragraph] {
        var paragraphs: [Paragraph] = []
        var previousEnd = -Double.infinity
        for word in words {
            if paragraphs.isEmpty || word.start - previousEnd >= paragraphPause
                || word.speaker != paragraphs[paragraphs.count - 1].speaker
            {
                paragraphs.append(Paragraph(start: word.start, text: word.word, speaker: word.speaker))
            } else {
                paragraphs[paragraphs.count - 1].text += " " + word.word
            }
            previousEnd = word.end
        }
        return paragraphs
    }

    /// `text` without control or format characters, line or paragraph separators, and with
    /// `-->` (a cue's timing arrow) broken up; runs of white space become one space.
    static func clean(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> String in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: return " "
            default: return String(scalar)
            }
        }.joined()
        var words = kept.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        while words.contains("-->") { words = words.replacingOccurrences(of: "-->", with: "->") }
        return words
    }

    private static func vttEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Markdown's emphasis and heading characters escaped, so a word is never read as markup.
    private static func markdownEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\`*_[]#<>|".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// `01:02:03,456` (`separator` before the milliseconds), or `01:02:03` without them.
    static func clock(_ seconds: Double, separator: Character?, fraction: Bool = true) -> String {
        let milliseconds = Int64((max(0, seconds.isFinite ? seconds : 0) * 1000).rounded())
        let whole = milliseconds / 1000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let base = "\(two(whole / 3600)):\(two(whole / 60 % 60)):\(two(whole % 60))"
        guard fraction, let separator else { return base }
        let rest = milliseconds % 1000
        return base + String(separator) + (rest < 10 ? "00\(rest)" : rest < 100 ? "0\(rest)" : "\(rest)")
    }
}
