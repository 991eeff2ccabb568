import TestSupport
import Foundation
import SoundFiles
import Testing
@testable import MemoLibrary

/// Opening with `recovery: .later` lists at once; the encode a killed MP3 or Ogg Vorbis recording
/// needs is `finishPendingRecoveries`' work, which can be stopped and taken up again.
@Suite struct PendingRecoveryTests {
    /// A recording killed while its encoder followed the writer: an intermediate with `seconds`
    /// of audio, a final file encoded up to half of it, the row `recording`, the lock free.
    static func killedRecording(in library: MemoLibrary, format: FileFormat, seconds: Int) throws -> (MemoRecording, SoundFileWriter) {
        let settings = RecordingSettings(format: format, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: "Killed", settings: settings, at: LibraryFixture.start)
        let writer = try SoundFileWriter(path: recording.memo.path, settings: settings, metadata: recording.metadata)
        let encoding = try #require(try writer.startEncoding())
        let samples = (0..<48000 * seconds).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48000)) }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: samples.count, sampleFormat: .float32)
        }
        while try encoding.encodeSlice(upTo: writer.framesWritten / 2) > 0 {}
        recording.releaseLock()
        return (recording, writer)
    }

    @Test(arguments: [FileFormat.mp3, .ogg])
    func listingDoesNotWaitForTheEncodeAndAnInterruptedOneIsFinishedLater(_ format: FileFormat) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let (recording, writer) = try Self.killedRecording(in: library, format: format, seconds: 3)
        let id = recording.memo.id
        let intermediate = SoundFileRecovery.intermediatePath(for: recording.memo.path)

        let quick = try MemoLibrary(folder: fixture.folder, now: LibraryFixture.start, timeZone: LibraryFixture.utc, recovery: .later)
        #expect(quick.maintenance.pendingRecoveries == [id])
        #expect(quick.maintenance.recovered.isEmpty)
        #expect(try quick.memo(id: id)?.state == .recording, "listed as recording until recovered")
        #expect(quick.filesDecoded == 0)
        #expect(FileManager.default.fileExists(atPath: intermediate))

        // Stopped after the first slices (Ctrl-C): nothing changes, the intermediate stays.
        var seen: [RecoveryProgress] = []
        let none = try quick.finishPendingRecoveries { progress in
            seen.append(progress)
            return progress.encodedFrames < 24000
        }
        #expect(none.isEmpty)
        #expect(seen.first?.memoID == id && seen.first?.title == "Killed" && seen.first?.encodes == true)
        #expect(seen.last.map { $0.totalFrames == 144_000 && $0.fraction > 0 && $0.fraction < 0.5 } == true)
        #expect(quick.maintenance.pendingRecoveries == [id])
        #expect(try quick.memo(id: id)?.state == .recording)
        #expect(FileManager.default.fileExists(atPath: intermediate))

        // The next attempt encodes it whole and finishes the memo.
        var fractions: [Double] = []
        let recovered = try quick.finishPendingRecoveries { progress in
            fractions.append(progress.fraction)
            return true
        }
        #expect(recovered == [id])
        #expect(fractions == fractions.sorted(), "progress only grows")
        #expect(fractions.last.map { $0 > 0.95 } == true)
        #expect(quick.maintenance.pendingRecoveries.isEmpty)
        let memo = try #require(try quick.memo(id: id))
        #expect(memo.state == .recovered)
        #expect(abs(memo.frames - 144_000) <= 2048, "\(memo.frames) frames")
        #expect(!FileManager.default.fileExists(atPath: intermediate))
        withExtendedLifetime(writer) {}
    }

    /// The default opening still recovers everything before it returns, as it always did.
    @Test func openingAtOnceRecoversTheEncodeToo() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let (recording, writer) = try Self.killedRecording(in: library, format: .mp3, seconds: 2)
        let after = try fixture.open()
        #expect(after.maintenance.recovered == [recording.memo.id])
        #expect(after.maintenance.pendingRecoveries.isEmpty)
        #expect(try after.memo(id: recording.memo.id)?.state == .recovered)
        withExtendedLifetime(writer) {}
    }

    /// A recording whose process is alive is neither pending nor recovered.
    @Test func aLiveRecordingIsNotPending() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let recording = try library.beginRecording(
            title: nil, settings: RecordingSettings(format: .mp3, sampleRate: 48000, channels: 1), at: LibraryFixture.start)
        let other = try MemoLibrary(folder: fixture.folder, now: LibraryFixture.start, timeZone: LibraryFixture.utc, recovery: .later)
        #expect(other.maintenance.pendingRecoveries.isEmpty)
        #expect(try other.finishPendingRecoveries().isEmpty)
        #expect(try other.memo(id: recording.memo.id)?.state == .recording)
        recording.releaseLock()
    }
}
