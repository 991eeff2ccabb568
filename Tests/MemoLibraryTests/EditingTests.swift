import TestSupport
import Foundation
import Vocabulary
import SoundFiles
import Testing

@testable import MemoLibrary

/// Trim, split and silence removal (`MemoLibrary+Editing`): exact frames, the original kept
/// whole in Recently Deleted, nothing left behind by a refusal or a failure.
@Suite struct EditingTests {
    /// Writes `frames` stereo frames of seeded noise at the encoding's full depth (the low bits
    /// a 16- or 24-bit file cannot hold are zero), so that any re-quantisation shows.
    static func noiseMemo(
        _ fixture: LibraryFixture, _ library: MemoLibrary, format: FileFormat, encoding: Encoding, frames: Int, title: String = "Noise"
    ) throws -> Memo {
        let settings = RecordingSettings(format: format, encoding: encoding, sampleRate: 48000, channels: 2)
        let recording = try library.beginRecording(title: title, settings: settings, at: LibraryFixture.start)
        let writer = try SoundFileWriter(path: recording.memo.path, settings: settings, metadata: recording.metadata)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let shift: Int32 = encoding == .pcm24 || encoding == .alac24 ? 8 : 16
        let samples = (0..<(frames * 2)).map { _ -> Int32 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Int32(truncatingIfNeeded: state >> 32) >> shift) << shift
        }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .int32)
        }
        try writer.close()
        return try library.finishRecording(recording, peakDB: 0)
    }

    /// Every frame of the file at `path`, as int32.
    static func samples(_ path: String) throws -> [Int32] {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var all: [Int32] = []
        var buffer = [Int32](repeating: 0, count: 4096 * reader.info.channels)
        while true {
            let count = try buffer.withUnsafeMutableBytes { raw in
                try reader.read(into: raw.baseAddress!, frames: 4096, as: .int32)
            }
            if count == 0 { break }
            all += buffer[0..<(count * reader.info.channels)]
        }
        return all
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test(arguments: [(FileFormat.wav, Encoding.pcm16), (.wav, .pcm24), (.flac, .pcm16), (.flac, .pcm24), (.caf, .alac16)])
    func trimKeepsExactlyTheChosenFramesBitForBit(format: FileFormat, encoding: Encoding) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.noiseMemo(fixture, library, format: format, encoding: encoding, frames: 60_000)
        let source = try Self.samples(memo.path)
        let originalBytes = try Self.bytes(memo.path)
        let result = try library.trim(id: memo.id, keeping: 12_345..<54_321, at: LibraryFixture.start)
        #expect(!result.reencoded)
        #expect(result.memos.count == 1)
        let trimmed = try #require(result.memos.first)
        #expect(trimmed.frames == 54_321 - 12_345)
        #expect(trimmed.title == memo.title)
        #expect(trimmed.format == format && trimmed.encoding == encoding)
        let kept = try Self.samples(trimmed.path)
        #expect(kept.count == (54_321 - 12_345) * 2)
        #expect(kept == Array(source[(12_345 * 2)..<(54_321 * 2)]), "every kept sample as it was")
        #expect(try SoundFileReader(path: trimmed.path).info.frames == trimmed.frames)
        // The original is in Recently Deleted, byte for byte, and comes back whole.
        #expect(result.original.deletedAt != nil)
        #expect(try Self.bytes(result.original.path) == originalBytes)
        let restored = try library.restore(id: memo.id)
        #expect(try Self.bytes(restored.path) == originalBytes)
        #expect(restored.frames == memo.frames)
    }

    @Test func splitMakesTwoMemosWhoseFramesAddUpExactly() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.noiseMemo(fixture, library, format: .flac, encoding: .pcm16, frames: 50_001, title: "Interview")
        let source = try Self.samples(memo.path)
        let result = try library.split(id: memo.id, atFrame: 20_000, at: LibraryFixture.start)
        #expect(result.memos.map(\.title) == ["Interview (1)", "Interview (2)"])
        #expect(result.memos.map(\.frames) == [20_000, 30_001])
        let first = try Self.samples(result.memos[0].path)
        let second = try Self.samples(result.memos[1].path)
        #expect(first + second == source)
        #expect(abs(result.memos[1].created.timeIntervalSince(memo.created) - 20_000.0 / 48_000) < 0.001, "the second half began later")
        #expect(try library.memos().map(\.id).sorted() == result.memos.map(\.id).sorted())
        #expect(try library.memos(deleted: true).map(\.id) == [memo.id])
    }

    @Test func markersMoveWithTheAudio() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.noiseMemo(fixture, library, format: .wav, encoding: .pcm16, frames: 48_000)
        for time in [0.1, 0.4, 0.5, 0.9, 1.0] { try library.addMarker(Marker(time: time, label: "at \(time)"), toMemo: memo.id) }
        let trimmed = try library.trim(id: memo.id, keeping: 19_200..<43_200, at: LibraryFixture.start)  // 0.4 to 0.9 s
        let times = try library.markers(ofMemo: trimmed.memos[0].id).map { ($0.time * 1000).rounded() / 1000 }
        #expect(times == [0, 0.1, 0.5], "0.4 at the start, 0.5 inside, 0.9 at the very end; 0.1 and 1.0 cut off")
        #expect(try library.markers(ofMemo: memo.id).count == 5, "the original keeps its own")

        let split = try library.split(id: trimmed.memos[0].id, atFrame: 4_800, at: LibraryFixture.start)  // at 0.1 s
        #expect(try library.markers(ofMemo: split.memos[0].id).map(\.label) == ["at 0.4"])
        #expect(try library.markers(ofMemo: split.memos[1].id).map(\.time) == [0, 0.4], "the marker on the cut goes to the second half")
    }

    @Test func removingSilencesKeepsTheSoundAndAShortPause() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Pauses", settings: settings, at: LibraryFixture.start)
        // 0.5 s of tone, 2 s of silence, 0.5 s of tone.
        let tone = (0..<24_000).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let signal = tone + [Int16](repeating: 0, count: 96_000) + tone
        let writer = try SoundFileWriter(path: recording.memo.path, settings: settings, metadata: recording.metadata)
        try signal.withUnsafeBytes { try writer.write($0.baseAddress!, frames: signal.count, sampleFormat: .int16) }
        try writer.close()
        let memo = try library.finishRecording(recording, peakDB: -12)
        let result = try library.removeSilences(id: memo.id, SilenceRemoval(keptPause: 0.5), at: LibraryFixture.start)
        let kept = try #require(result.memos.first)
        #expect(kept.frames == 72_000, "0.5 + 0.5 (of the pause) + 0.5 s")
        let samples = try Self.samples(kept.path).map { Int16($0 >> 16) }
        #expect(samples == tone + [Int16](repeating: 0, count: 24_000) + tone)
        #expect(throws: MemoLibraryError.self) {
            try library.removeSilences(id: kept.id, SilenceRemoval(keptPause: 0.5), at: LibraryFixture.start)
        }
    }

    /// A memo whose pauses were removed was transcribed afresh, and its
    /// words no longer matched what was found before. The original's words go with the audio:
    /// at their times in the new memo, the transcript complete for its frames (not re-made).
    @Test func theWordsFoundBeforeAnEditStayFoundAtTheirNewTimes() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Pauses", settings: settings, at: LibraryFixture.start)
        // 0.5 s of tone, 2 s of silence, 0.5 s of tone: "hello" in the first, "world" in the second.
        let tone = (0..<24_000).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let signal = tone + [Int16](repeating: 0, count: 96_000) + tone
        let writer = try SoundFileWriter(path: recording.memo.path, settings: settings, metadata: recording.metadata)
        try signal.withUnsafeBytes { try writer.write($0.baseAddress!, frames: signal.count, sampleFormat: .int16) }
        try writer.close()
        let memo = try library.finishRecording(recording, peakDB: -12)
        let heard = Transcript(
            words: [TranscriptWord(word: "hello", start: 0.1, end: 0.4), TranscriptWord(word: "world", start: 2.6, end: 2.9)],
            model: "pocketsphinx:test", frames: memo.frames)
        try library.storeTranscript(heard, forMemo: memo.id, at: LibraryFixture.start)

        let result = try library.removeSilences(id: memo.id, SilenceRemoval(keptPause: 0.5), at: LibraryFixture.start.addingTimeInterval(60))
        let kept = try #require(result.memos.first)
        let stored = try #require(try library.transcript(of: kept))
        #expect(stored.state == .complete, "not waiting to be transcribed again")
        #expect(stored.transcript.model == "pocketsphinx:test" && stored.transcript.frames == kept.frames)
        #expect(stored.transcribedAt == LibraryFixture.start, "when the words were heard")
        // 0.5 s of tone + 0.5 s of the pause: the second tone begins at 1.0 s instead of 2.5 s.
        let words = stored.transcript.words.map { "\($0.word) \(($0.start * 1000).rounded() / 1000)-\(($0.end * 1000).rounded() / 1000)" }
        #expect(words == ["hello 0.1-0.4", "world 1.1-1.4"], "\(words)")
        #expect(try library.searchTranscripts("world").map(\.memo.id) == [kept.id], "found in the new memo, not in Recently Deleted's original")
        #expect(try library.transcript(of: memo)?.transcript.words.count == 2, "the original keeps its own")

        // A trim keeps the words inside what it keeps; a split gives each half its own.
        let trimmed = try library.trim(id: kept.id, keeping: 0..<36_000, at: LibraryFixture.start)  // 0 to 0.75 s
        #expect(try library.transcript(of: trimmed.memos[0])?.transcript.words.map(\.word) == ["hello"])
        let split = try library.split(id: trimmed.memos[0].id, atFrame: 12_000, at: LibraryFixture.start)  // at 0.25 s
        let halves = try split.memos.map { try library.transcript(of: $0)?.transcript.words.map(\.word) }
        #expect(halves == [[], ["hello"]], "the word's middle (0.25 s) is on the cut: it goes to the second half, as a marker does")
    }

    @Test func movedWordsKeepTheirOrderAndDropOnlyWhatWasCut() {
        let words = [
            TranscriptWord(word: "a", start: 0.0, end: 0.2), TranscriptWord(word: "cut", start: 1.1, end: 1.3),
            TranscriptWord(word: "b", start: 1.9, end: 2.3), TranscriptWord(word: "nan", start: .nan, end: 2.5),
            TranscriptWord(word: "c", start: 3.0, end: 3.2),
        ]
        // Kept: 0–1 s and 2–4 s of a 10 Hz memo. "b" straddles the cut at 2 s: its middle (2.1 s) is kept.
        let piece = EditPiece(title: "t", ranges: [0..<10, 20..<40])
        let moved = EditTranscript.moved(Transcript(words: words, model: "m", frames: 40), sampleRate: 10, into: piece)
        #expect(moved.words.map(\.word) == ["a", "b", "c"])
        #expect(moved.words.map(\.start) == [0.0, 1.0, 2.0], "b held within its range: its start at the cut")
        #expect(moved.frames == 30)
    }

    @Test func keptRangesCutEachLongPauseToTheKeptLength() {
        let removal = SilenceRemoval(keptPause: 0.02)  // 2 blocks of 10 ms at 100 frames a block (10 kHz)
        let blocks = [false, true, true, true, true, true, false, true, false, true, true, true]
        let kept = removal.keptRanges(silentBlocks: blocks, blockFrames: 100, within: 0..<1_200, sampleRate: 10_000)
        #expect(kept == [0..<200, 500..<1_000, 1_100..<1_200], "5 silent blocks become 2 (1 at each side), 1 stays, the last 3 become 2")
        #expect(removal.keptRanges(silentBlocks: blocks, blockFrames: 100, within: 700..<1_200, sampleRate: 10_000) == [700..<1_000, 1_100..<1_200])
        #expect(removal.keptRanges(silentBlocks: [true, true, true, true], blockFrames: 100, within: 0..<400, sampleRate: 10_000) == [0..<100, 300..<400])
    }

    @Test func lossyFormatsAreEncodedAgainAndSaySo() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Lossy", format: .mp3, seconds: 2)
        let result = try library.trim(id: memo.id, keeping: 24_000..<72_000, at: LibraryFixture.start)
        #expect(result.reencoded)
        let trimmed = try #require(result.memos.first)
        #expect(abs(trimmed.duration - 1.0) < 0.1)
        #expect(FileManager.default.fileExists(atPath: trimmed.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder).filter { $0.hasPrefix("..") || $0.contains(".edit-") }.isEmpty)
    }

    @Test(arguments: [
        (Int64(3000), Int64(1000), "nothing would be kept"),
        (Int64(1000), Int64(1000), "nothing would be kept"),
        (Int64(0), Int64(99_999), "goes past the end"),
        (Int64(-1), Int64(100), "goes past the end"),
        (Int64(0), Int64(12_000), "the whole memo"),
        (Int64(12_000), Int64(12_000), "nothing would be kept: the start"),
        (Int64(20_000), Int64(30_000), "is not before the end of the memo"),
    ])
    func badTrimRangesAreUsageErrorsThatChangeNothing(from: Int64, to: Int64, cause: String) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Short")
        let before = fixture.allPaths()
        #expect {
            try library.trim(id: memo.id, keeping: from..<max(from, to), at: LibraryFixture.start)
        } throws: { error in
            guard let error = error as? MemoLibraryError, case .invalidEdit = error else { return false }
            return error.isUsageError && error.description.contains(cause)
        }
        #expect(fixture.allPaths() == before)
        #expect(try library.memos().map(\.id) == [memo.id])
    }

    @Test(arguments: [Int64(0), 12_000, 50_000])
    func splitOutsideTheMemoIsAUsageError(frame: Int64) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Short")
        #expect {
            try library.split(id: memo.id, atFrame: frame, at: LibraryFixture.start)
        } throws: { error in
            guard let error = error as? MemoLibraryError, case .invalidEdit = error else { return false }
            return error.isUsageError && error.description.contains("is not inside the memo")
        }
        #expect(try library.memos().map(\.id) == [memo.id])
    }

    @Test func aMemoBeingRecordedOrDeletedIsRefused() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Live", settings: settings, at: LibraryFixture.start)
        #expect {
            try library.trim(id: recording.memo.id, keeping: 0..<10, at: LibraryFixture.start)
        } throws: { error in
            (error as? MemoLibraryError)?.description.contains("it is being recorded; it can be trimmed once the recording stops") == true
        }
        let memo = try fixture.record(into: library, title: "Gone")
        _ = try library.delete(id: memo.id, at: LibraryFixture.start)
        #expect {
            try library.split(id: memo.id, atFrame: 100, at: LibraryFixture.start)
        } throws: { error in
            (error as? MemoLibraryError)?.description.contains("it is in Recently Deleted") == true
        }
    }

    /// A failure once the new files have their names (the index full, a crash seam) rolls it all
    /// back: no new file stays to be adopted, the original is where it was.
    @Test func aFailureInTheTransactionLeavesOnlyTheOriginal() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try Self.noiseMemo(fixture, library, format: .wav, encoding: .pcm16, frames: 20_000)
        let before = fixture.allPaths()
        library.willCommitEdit = { () throws(MemoLibraryError) in throw .index(.full) }
        #expect(throws: MemoLibraryError.self) { try library.split(id: memo.id, atFrame: 5_000, at: LibraryFixture.start) }
        #expect(fixture.allPaths() == before)
        #expect(try library.memos().map(\.id) == [memo.id])
        #expect(try library.memo(id: memo.id)?.path == memo.path)
    }

    /// A copy an edit killed mid-way left (its process gone) is removed when the library opens.
    @Test func anAbandonedEditCopyIsRemovedAtOpening() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Kept")
        library.close()
        let deadProcess: Int32 = 4_000_000  // above pid_max
        let names = [".x.wav.edit-\(deadProcess).wav", "..x.mp3.edit-\(deadProcess).mp3.partial.w64", "..x.mp3.edit-\(deadProcess).mp3.partial.json"]
        for name in names { _ = FileManager.default.createFile(atPath: fixture.folder + "/" + name, contents: Data([1, 2, 3])) }
        let reopened = try fixture.open()
        #expect(Set(reopened.maintenance.removedCopies.map { URL(fileURLWithPath: $0.path).lastPathComponent }) == Set(names))
        #expect(try reopened.memos().map(\.id) == [memo.id])
        #expect(reopened.maintenance.adopted.isEmpty)
    }
}

/// Peak envelopes in the index (schema version 5).
@Suite struct EnvelopeStorageTests {
    @Test func anEditStoresItsEnvelopeAndAMemoWithoutOneIsMeasuredOnce() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Tone", seconds: 2)
        // Finished without its recorder's statistics: decoded once, the envelope with the rest.
        let measured = try #require(try library.storedEnvelope(ofMemo: memo.id), "stored when it was finished")
        #expect(measured == (try MemoLibrary.measureEnvelope(path: memo.path)))
        #expect(measured.peaks.count == 40)
        #expect(Set(measured.columnPeaks(width: 4).map { ($0 * 10).rounded() / 10 }) == [-6], "a −6 dBFS tone")
        #expect(try library.envelope(of: memo) == measured)
        // One from before version 5 (none stored) is measured when asked for, and stored.
        try library.index.replaceEnvelope(memoID: memo.id, with: nil)
        #expect(try library.storedEnvelope(ofMemo: memo.id) == nil)
        #expect(try library.envelope(of: memo) == measured)
        #expect(try library.storedEnvelope(ofMemo: memo.id) == measured, "stored once measured")

        let trimmed = try library.trim(id: memo.id, keeping: 0..<24_000, at: LibraryFixture.start)
        let stored = try #require(try library.storedEnvelope(ofMemo: trimmed.memos[0].id))
        #expect(stored.peaks.count == 10)
        #expect(stored.peaks == Array(measured.peaks.prefix(10)), "the edit's envelope is the kept part's")
        let again = try library.split(id: trimmed.memos[0].id, atFrame: 12_000, at: LibraryFixture.start)
        try library.purge(id: again.original.id)
        #expect(try library.storedEnvelope(ofMemo: again.original.id) == nil, "the trigger took it with the row")
        #expect(try library.integrityCheck() == "ok")
    }

    @Test func anAdoptedFileHasItsEnvelopeOnceItIsListed() throws {
        let fixture = try LibraryFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        let path = fixture.folder + "/dropped.flac"
        try LibraryFixture.writeTone(
            to: path, settings: RecordingSettings(format: .flac, sampleRate: 48000, channels: 1), metadata: SoundFileMetadata(),
            seconds: 1.5)
        let library = try fixture.open()
        let adopted = try #require(try library.memos().first)
        #expect(library.maintenance.adopted == [adopted.id])
        let stored = try #require(try library.storedEnvelope(ofMemo: adopted.id), "measured as it was adopted")
        #expect(stored == (try MemoLibrary.measureEnvelope(path: path)))
        #expect(stored.peaks.count == 30)

        // The file changes (another length): re-read, its envelope replaced.
        try LibraryFixture.writeTone(
            to: path, settings: RecordingSettings(format: .flac, sampleRate: 48000, channels: 1), metadata: SoundFileMetadata(),
            seconds: 0.5)
        let reopened = try fixture.open()
        #expect(try reopened.storedEnvelope(ofMemo: adopted.id)?.peaks.count == 10)
    }

    @Test func aMemoBeingRecordedHasNoWaveformYet() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let recording = try library.beginRecording(title: "Live", settings: RecordingSettings(format: .wav, sampleRate: 48000, channels: 1), at: LibraryFixture.start)
        #expect {
            try library.envelope(of: recording.memo)
        } throws: { error in
            (error as? MemoLibraryError)?.description.contains("its waveform is drawn once it stops") == true
        }
    }

    /// A version-4 index gains the envelopes table, keeping its memos.
    @Test func versionFourIndexIsMigrated() throws {
        let fixture = try LibraryFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        for migration in IndexSchema.migrations.prefix(4) { try database.execute(migration) }
        try database.execute("PRAGMA user_version = 4")
        database.close()
        let library = try fixture.open()
        #expect(try library.index.hasEnvelopeTable())
        #expect(try library.index.database.query("PRAGMA user_version").first?.integer(0) == IndexSchema.currentVersion)
    }
}
