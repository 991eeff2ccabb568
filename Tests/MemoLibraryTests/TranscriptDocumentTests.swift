import Testing

@testable import MemoLibrary

/// A transcript as text, Markdown and subtitles.
@Suite struct TranscriptDocumentTests {
    static func words(_ text: String, from start: Double = 0, each: Double = 0.4, gap: Double = 0.1) -> [TranscriptWord] {
        var time = start
        return text.split(separator: " ").map { word in
            defer { time += each + gap }
            return TranscriptWord(word: String(word), start: time, end: time + each)
        }
    }

    static func transcript(_ words: [TranscriptWord]) -> Transcript {
        Transcript(words: words, model: "test", frames: 0)
    }

    @Test func cuesEndAtPausesAndNeverPassSevenSecondsOrTwoLines() {
        let first = Self.words("so this is the first thing i wanted to say")
        let second = Self.words("and after a pause the second", from: (first.last?.end ?? 0) + 1.5)
        let cues = TranscriptDocument.cues(first + second)
        #expect(cues.count == 2, "the 1.5 s pause ends the first cue")
        #expect(cues.first?.lines == ["so this is the first thing i wanted to say"])
        #expect(cues.first?.start == 0 && cues.first?.end == first.last?.end)

        // Two minutes of words without a pause: every cue within 7 s and two lines of 42.
        let long = Self.words(String(repeating: "another rather longish word ", count: 60))
        let longCues = TranscriptDocument.cues(long)
        #expect(longCues.count > 10)
        for cue in longCues {
            #expect(cue.end - cue.start <= TranscriptDocument.cueSeconds + 1e-9, "\(cue)")
            #expect(cue.lines.count <= 2 && cue.lines.allSatisfy { $0.count <= 42 }, "\(cue)")
        }
        #expect(longCues.flatMap { $0.lines.joined(separator: " ").split(separator: " ") }.count == long.count, "no word lost")
        for (earlier, later) in zip(longCues, longCues.dropFirst()) { #expect(earlier.end <= later.start) }
    }

    @Test func subRipAndWebVTTHaveTheirTimingsAndNumbers() {
        let transcript = Self.transcript(Self.words("hello there", from: 61.25) + Self.words("again", from: 3_725.5))
        let srt = TranscriptDocument.text(transcript, format: .srt, title: "T", duration: 3_800)
        #expect(srt == "1\n00:01:01,250 --> 00:01:02,150\nhello there\n\n2\n01:02:05,500 --> 01:02:05,900\nagain\n")
        let vtt = TranscriptDocument.text(transcript, format: .vtt, title: "T", duration: 3_800)
        #expect(vtt == "WEBVTT\n\n00:01:01.250 --> 00:01:02.150\nhello there\n\n01:02:05.500 --> 01:02:05.900\nagain\n")
    }

    @Test func textAndMarkdownAreParagraphsAtLongPauses() {
        let transcript = Self.transcript(Self.words("first part here") + Self.words("second part", from: 10))
        #expect(TranscriptDocument.text(transcript, format: .txt, title: "T", duration: 12) == "first part here\n\nsecond part\n")
        let markdown = TranscriptDocument.text(transcript, format: .md, title: "Plan *v2*", duration: 12)
        #expect(markdown == "# Plan \\*v2\\*\n\n_Transcript, 00:00:12 long._\n\n**00:00:00** first part here\n\n**00:00:10** second part\n")
    }

    /// Nothing from the recogniser or a title reaches a file as a control, ends a cue early
    /// (`-->`, a blank line) or opens a WebVTT tag.
    @Test func controlsArrowsAndTagsNeverReachTheFile() {
        let hostile = [
            TranscriptWord(word: "a\u{1B}[2Jb", start: 0, end: 0.5),
            TranscriptWord(word: "x-->y", start: 0.6, end: 1),
            TranscriptWord(word: "one\n\ntwo", start: 1.1, end: 1.5),
            TranscriptWord(word: "<b>&", start: 1.6, end: 2),
            TranscriptWord(word: "\u{200B}\u{2028}", start: 2.1, end: 2.2),
            TranscriptWord(word: "late", start: .nan, end: 3),
        ]
        let transcript = Self.transcript(hostile)
        for format in TranscriptFormat.allCases {
            let text = TranscriptDocument.text(transcript, format: format, title: "t\u{7}itle\u{1B}", duration: 3)
            #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }, "\(format): \(text)")
            #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .format }, "\(format)")
            #expect(text.components(separatedBy: "-->").count - 1 == (format == .srt || format == .vtt ? 1 : 0), "\(format): \(text)")
        }
        let srt = TranscriptDocument.text(transcript, format: .srt, title: "", duration: 3)
        #expect(srt == "1\n00:00:00,000 --> 00:00:02,000\na [2Jb x->y one two <b>&\n")
        let vtt = TranscriptDocument.text(transcript, format: .vtt, title: "", duration: 3)
        #expect(vtt.hasSuffix("a [2Jb x-&gt;y one two &lt;b&gt;&amp;\n"))
    }

    @Test func anEmptyTranscriptIsAnEmptyDocument() {
        let empty = Self.transcript([])
        #expect(TranscriptDocument.text(empty, format: .srt, title: "T", duration: 0) == "")
        #expect(TranscriptDocument.text(empty, format: .vtt, title: "T", duration: 0) == "WEBVTT\n\n")
        #expect(TranscriptDocument.text(empty, format: .txt, title: "T", duration: 0) == "")
    }

    @Test func theFormatComesFromTheExtension() {
        #expect(TranscriptFormat.named(byExtensionOf: "out/Talk.SRT") == .srt)
        #expect(TranscriptFormat.named(byExtensionOf: "notes.md") == .md)
        #expect(TranscriptFormat.named(byExtensionOf: "talk.flac") == nil)
        #expect(TranscriptFormat.named(byExtensionOf: ".srt") == nil, "a hidden file's name, not an extension")
        #expect(TranscriptFormat.named(byExtensionOf: "dir.srt/talk") == nil)
    }
}
