import TestSupport
import Foundation
import SoundFiles
import Testing

@testable import MemoLibrary

/// Markers in the index (schema version 4).
@Suite struct MarkerTests {
    @Test func markersAreStoredInOrderAndGoWithAPurge() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Talk")
        try library.addMarker(Marker(time: memo.duration, label: "end"), toMemo: memo.id)
        try library.addMarker(Marker(time: 0), toMemo: memo.id)
        #expect(try library.markers(ofMemo: memo.id) == [Marker(time: 0), Marker(time: memo.duration, label: "end")])
        #expect(try library.allMarkers()[memo.id]?.count == 2)
        _ = try library.delete(id: memo.id, at: LibraryFixture.start)
        #expect(try library.markers(ofMemo: memo.id).count == 2, "kept in Recently Deleted")
        try library.purge(id: memo.id)
        #expect(try library.allMarkers().isEmpty, "the trigger took them with the row")
        #expect(try library.integrityCheck() == "ok")
    }

    @Test(arguments: [
        (Marker(time: -0.5), "a marker's time is 0 s or more"),
        (Marker(time: .nan), "a marker's time is 0 s or more"),
        (Marker(time: .infinity), "a marker's time is 0 s or more"),
        (Marker(time: 1000), "1000 s is past the end of the memo"),
        (Marker(time: 0, label: "a\u{1B}[2J"), "control characters"),
        (Marker(time: 0, label: String(repeating: "x", count: 501)), "at most 500 characters"),
    ])
    func badMarkersAreRefusedNamingTheCause(marker: Marker, cause: String) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Talk")
        #expect {
            try library.addMarker(marker, toMemo: memo.id)
        } throws: { error in
            guard let error = error as? MemoLibraryError, case .invalidMarker = error else { return false }
            return error.isUsageError && error.description.contains(cause)
        }
        #expect(try library.markers(ofMemo: memo.id).isEmpty)
    }

    /// The app's `B`: a label given to a marker already there, in the index and in the file.
    @Test func aMarkersLabelIsChangedInTheIndexAndTheFile() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Talk", format: .flac, seconds: 1)
        try library.addMarker(Marker(time: 0.5), toMemo: memo.id)
        try library.addMarker(Marker(time: 0.25, label: "kept"), toMemo: memo.id)
        #expect(try library.labelMarker(at: 0.5, ofMemo: memo.id, label: "second question") == .written)
        #expect(try library.markers(ofMemo: memo.id) == [Marker(time: 0.25, label: "kept"), Marker(time: 0.5, label: "second question")])
        #expect(FileMarkers.read(from: memo.path, format: .flac)?.map(\.label) == ["kept", "second question"])
        try library.labelMarker(at: 0.5, ofMemo: memo.id, label: "")
        #expect(try library.markers(ofMemo: memo.id)[1] == Marker(time: 0.5), "an empty label takes it away")
    }

    @Test(arguments: [
        (0.2, "second", "it has no marker at 0.2 s"),
        (0.125, "a\u{1B}[2J", "control characters"),
        (0.125, String(repeating: "x", count: 501), "at most 500 characters"),
    ])
    func aLabelForNoMarkerOrABadLabelIsRefusedNamingTheCause(time: Double, label: String, cause: String) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Talk")
        try library.addMarker(Marker(time: 0.125, label: "before"), toMemo: memo.id)
        #expect {
            try library.labelMarker(at: time, ofMemo: memo.id, label: label)
        } throws: { error in
            guard let error = error as? MemoLibraryError, case .invalidMarker = error else { return false }
            return error.description.contains(cause)
        }
        #expect(try library.markers(ofMemo: memo.id) == [Marker(time: 0.125, label: "before")], "nothing changed")
        #expect(throws: MemoLibraryError.self) { try library.labelMarker(at: 0.125, ofMemo: 9999, label: "x") }
    }

    @Test func aMemoBeingRecordedTakesMarkersPastItsLengthSoFar() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let settings = RecordingSettings(format: .wav, sampleRate: 48000, channels: 2)
        let recording = try library.beginRecording(title: "Live", settings: settings, at: LibraryFixture.start)
        try library.addMarker(Marker(time: 12.5), toMemo: recording.memo.id)
        #expect(try library.markers(ofMemo: recording.memo.id) == [Marker(time: 12.5)])
        #expect(throws: MemoLibraryError.self) { try library.addMarker(Marker(time: 1), toMemo: 9999) }
    }

    /// A version-3 index gains the markers table; read as it is (read-only), it has none.
    @Test func versionThreeIndexIsMigrated() throws {
        let fixture = try LibraryFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder, withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: fixture.folder + "/" + MemoIndex.fileName, mode: .readWriteCreate)
        for migration in IndexSchema.migrations.prefix(3) { try database.execute(migration) }
        try database.execute("PRAGMA user_version = 3")
        let index = MemoIndex(database: database, folder: fixture.folder)
        #expect(try !index.hasMarkerTable())
        database.close()
        let library = try fixture.open()
        #expect(try library.index.hasMarkerTable())
        let memo = try fixture.record(into: library, title: "After")
        try library.addMarker(Marker(time: 0.1, label: "x"), toMemo: memo.id)
        #expect(try library.allMarkers() == [memo.id: [Marker(time: 0.1, label: "x")]])
    }

    @Test func audacityLabelsAreTabSeparatedPointLabels() {
        #expect(AudacityLabels.text([Marker(time: 1.25, label: "a b"), Marker(time: 62)]) == "1.250000\t1.250000\ta b\n62.000000\t62.000000\t\n")
        #expect(AudacityLabels.text([]) == "")
    }
}
