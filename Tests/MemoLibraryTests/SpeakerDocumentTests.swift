import Testing
import Vocabulary

@testable import MemoLibrary

/// A meeting memo's transcript as text, Markdown and subtitles: each names its speakers in its
/// format's usual way, and a change of speaker ends a paragraph and a cue.
@Suite struct SpeakerDocumentTests {
    static func words(_ text: String, from start: Double, _ speaker: Speaker?) -> [TranscriptWord] {
        TranscriptDocumentTests.words(text, from: start).map {
            TranscriptWord(word: $0.word, start: $0.start, end: $0.end, speaker: speaker)
        }
    }

    /// "Me" asks, "Them" answers straight after (no pause), "Me" again after a long pause.
    static let meeting = Transcript(
        words: words("are we ready", from: 0, .me) + words("yes we are", from: 1.5, .them)
            + words("good", from: 10, .me),
        model: "test", frames: 0)

    @Test func textAndMarkdownNameTheSpeakerOfEachParagraph() {
        #expect(
            TranscriptDocument.text(Self.meeting, format: .txt, title: "T", duration: 12)
                == "Me: are we ready\n\nThem: yes we are\n\nMe: good\n")
        #expect(
            TranscriptDocument.text(Self.meeting, format: .md, title: "T", duration: 12)
                == "# T\n\n_Transcript, 00:00:12 long._\n\n**00:00:00** **Me:** are we ready\n\n"
                + "**00:00:01** **Them:** yes we are\n\n**00:00:10** **Me:** good\n")
    }

    @Test func subRipNamesTheSpeakerAndWebVTTUsesAVoiceTag() {
        #expect(
            TranscriptDocument.text(Self.meeting, format: .srt, title: "T", duration: 12)
                == "1\n00:00:00,000 --> 00:00:01,400\nMe: are we ready\n\n2\n00:00:01,500 --> 00:00:02,900\nThem: yes we are\n\n"
                + "3\n00:00:10,000 --> 00:00:10,400\nMe: good\n")
        #expect(
            TranscriptDocument.text(Self.meeting, format: .vtt, title: "T", duration: 12)
                == "WEBVTT\n\n00:00:00.000 --> 00:00:01.400\n<v Me>are we ready\n\n00:00:01.500 --> 00:00:02.900\n<v Them>yes we are\n\n"
                + "00:00:10.000 --> 00:00:10.400\n<v Me>good\n")
    }

    /// A cue's first line keeps room for the speaker's name: the SubRip line stays within 42.
    @Test func theNameFitsInTheFirstLine() {
        let long = Self.words("one two three four five six seven eight nine ten", from: 0, .them)
        let cues = TranscriptDocument.cues(long)
        #expect(cues.allSatisfy { $0.speaker == .them })
        let srt = TranscriptDocument.text(Transcript(words: long, model: "m", frames: 0), format: .srt, title: "T", duration: 9)
        let lines = srt.split(separator: "\n").filter { !$0.contains("-->") && Int($0) == nil }
        #expect(lines.first?.hasPrefix("Them: one two") == true, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= TranscriptDocument.lineLength }, "\(lines)")
    }

    @Test func aTranscriptWithoutSpeakersNamesNoOne() {
        let plain = Transcript(words: Self.meeting.words.map { TranscriptWord(word: $0.word, start: $0.start, end: $0.end) }, model: "m", frames: 0)
        #expect(TranscriptDocument.text(plain, format: .txt, title: "T", duration: 12) == "are we ready yes we are\n\ngood\n")
        #expect(TranscriptDocument.cues(plain.words).count == 2)
    }
}
