import Foundation
import Testing
import Vocabulary

@testable import MemoLibrary
@testable import VoiceMemoCLI

/// `search` and `transcribe` name the speaker of a meeting memo's words, in text and `--json`;
/// a memo without speakers prints what it always has.
@Suite struct SpeakerOutputTests {
    static let memo = Memo(
        id: 4, title: "Standup", created: Date(timeIntervalSince1970: 0), duration: 10, frames: 480_000,
        sampleRate: 48000, channels: 2, format: .flac, encoding: .pcm16, path: "/l/standup.flac", size: 1, peakDB: -6,
        state: .complete)

    static func hit(_ speaker: Speaker?) -> TranscriptHit {
        TranscriptHit(memo: memo, time: 1.5, snippet: "we ship on friday …", wordIndex: 2, speaker: speaker)
    }

    @Test func aSearchHitNamesTheSpeakerOfItsWord() {
        #expect(SearchRunner.snippetText(Self.hit(.them)) == "Them: we ship on friday …")
        #expect(SearchRunner.snippetText(Self.hit(nil)) == "we ship on friday …")
        #expect(
            SearchRunner.json(Self.hit(.me)).serialized
                == #"{"id": 4, "title": "Standup", "path": "/l/standup.flac", "matched": "transcript", "time": 1.5, "snippet": "we ship on friday …", "speaker": "Me"}"#)
        #expect(!SearchRunner.json(Self.hit(nil)).serialized.contains("speaker"))
    }

    @Test func transcribeStartsALineAtEachChangeOfSpeakerAndNamesIt() {
        let words = [
            TranscriptWord(word: "ready", start: 0.5, end: 0.9, speaker: .me),
            TranscriptWord(word: "yes", start: 1.0, end: 1.3, speaker: .them),
            TranscriptWord(word: "go", start: 1.4, end: 1.6, speaker: .them),
        ]
        #expect(TranscribeRunner.lines(words) == ["00:00:00.5  Me: ready", "00:00:01.0  Them: yes go"])
        let plain = words.map { TranscriptWord(word: $0.word, start: $0.start, end: $0.end) }
        #expect(TranscribeRunner.lines(plain) == ["00:00:00.5  ready yes go"])
        let json = TranscribeRunner.json(Transcript(words: words, model: "m", frames: 0), id: 4).serialized
        #expect(json.contains(#"{"word": "yes", "start": 1, "end": 1.3, "speaker": "Them"}"#), "\(json)")
        let plainJSON = TranscribeRunner.json(Transcript(words: plain, model: "m", frames: 0), id: 4).serialized
        #expect(!plainJSON.contains("speaker"))
    }
}
