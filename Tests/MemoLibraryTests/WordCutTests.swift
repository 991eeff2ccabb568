import Foundation
import SoundFiles
import TestSupport
import Testing

@testable import MemoLibrary

/// Cutting words out of a memo (and keeping only them): the cut falls at the quietest 10 ms of
/// the pause around the words, the kept frames are exact, markers and words move with the audio.
@Suite struct WordCutTests {
    /// Four 0.5 s tone "words" at 0, 1, 2 and 3 s (48 kHz mono, 16-bit WAV), each pause 0.5 s of
    /// quiet noise with one silent 10 ms block in it (at 0.7, 1.75 and 2.6 s); words stored.
    static func memo(_ library: MemoLibrary) throws -> Memo {
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Words", settings: settings, at: LibraryFixture.start)
        var generator = SplitMix64(seed: 7)
        var signal = [Int16]()
        let silentBlocks = [33_600, 84_000, 124_800]
        for frame in 0..<168_000 {
            let inWord = frame % 48_000 < 24_000 && frame < 168_000
            let silent = silentBlocks.contains { (0..<480).contains(frame - $0) }
            let noise = Int16(truncatingIfNeeded: Int(generator.next() % 201) - 100)
            signal.append(inWord ? Int16(8000 * sin(2 * Double.pi * 440 * Double(frame) / 48_000)) : silent ? 0 : noise)
        }
        let writer = try SoundFileWriter(path: recording.memo.path, settings: settings, metadata: recording.metadata)
        try signal.withUnsafeBytes { try writer.write($0.baseAddress!, frames: signal.count, sampleFormat: .int16) }
        try writer.close()
        let memo = try library.finishRecording(recording, peakDB: -12)
        let words = ["one", "two", "three", "four"].enumerated().map { index, word in
            TranscriptWord(word: word, start: Double(index), end: Double(index) + 0.5)
        }
        try library.storeTranscript(Transcript(words: words, model: "test", frames: memo.frames), forMemo: memo.id, at: LibraryFixture.start)
        return memo
    }

    @Test func twoWordsCutAtTheQuietestMomentsOfTheirPauses() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.memo(library)
        let source = try EditingTests.samples(memo.path)
        try library.addMarker(Marker(time: 3.2, label: "after"), toMemo: memo.id)
        // "two three": from the pause after "one" to the pause before "four".
        let result = try library.cutWords(id: memo.id, pauseBefore: 0.5...1.0, pauseAfter: 2.5...3.0, keeping: false, at: LibraryFixture.start)
        let kept = try #require(result.memos.first)
        // The silent blocks' middles: 0.705 s (frame 33 840) and 2.605 s (frame 125 040).
        let expected = Array(source[0..<33_840]) + Array(source[125_040...])
        #expect(kept.frames == Int64(expected.count))
        #expect(try EditingTests.samples(kept.path) == expected, "exact frames, cut at the silent blocks")
        let words = try #require(try library.transcript(of: kept)).transcript.words
        #expect(words.map(\.word) == ["one", "four"])
        #expect(abs((words.last?.start ?? 0) - (3.0 - 1.9)) < 0.001, "four moved up by the 1.9 s cut")
        #expect(try library.markers(ofMemo: kept.id).map { ($0.time * 1000).rounded() / 1000 } == [1.3])
        #expect(try library.memo(id: memo.id)?.deletedAt != nil, "the original in Recently Deleted")
    }

    @Test func keepingOnlyTheWordsTrimsAtTheirPauses() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.memo(library)
        let source = try EditingTests.samples(memo.path)
        let result = try library.cutWords(id: memo.id, pauseBefore: 1.5...2.0, pauseAfter: 2.5...3.0, keeping: true, at: LibraryFixture.start)
        let kept = try #require(result.memos.first)
        #expect(try EditingTests.samples(kept.path) == Array(source[84_240..<125_040]))
        #expect(try library.transcript(of: kept)?.transcript.words.map(\.word) == ["three"])
    }

    @Test func theFirstWordCutFromTheStartAndTheLastToTheEnd() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.memo(library)
        let first = try library.cutWords(id: memo.id, pauseBefore: 0...0, pauseAfter: 0.5...1.0, keeping: false, at: LibraryFixture.start)
        let afterFirst = try #require(first.memos.first)
        #expect(afterFirst.frames == memo.frames - 33_840)
        let last = try library.cutWords(id: afterFirst.id, pauseBefore: 1.795...2.295, pauseAfter: 2.795...2.795, keeping: false, at: LibraryFixture.start)
        #expect(try library.transcript(of: try #require(last.memos.first))?.transcript.words.map(\.word) == ["two", "three"])
    }

    @Test func aMarkerAmongTheWordsEverythingAndNothingAreRefused() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.memo(library)
        try library.addMarker(Marker(time: 1.2, label: "keep me"), toMemo: memo.id)
        let refusals: [(ClosedRange<Double>, ClosedRange<Double>, Bool, String)] = [
            (0.5...1.0, 1.5...2.0, false, "the marker at 00:00:01 (“keep me”) is among the words chosen"),
            (0...0, 3.5...3.5, false, "those are all of its words"),
            (0...0, 3.5...3.5, true, "the words chosen are the whole memo"),
            (1.5...2.0, 1.0...1.2, false, "not inside the memo"),
            (9...9, 9.5...9.5, false, "not inside the memo"),
        ]
        for (before, after, keeping, reason) in refusals {
            #expect {
                try library.cutWords(id: memo.id, pauseBefore: before, pauseAfter: after, keeping: keeping, at: LibraryFixture.start)
            } throws: { error in
                guard case .invalidEdit(_, let said) = error as? MemoLibraryError else { return false }
                return said.contains(reason)
            }
        }
        #expect(try library.memos().map(\.id) == [memo.id], "nothing made, nothing moved")
    }
}
