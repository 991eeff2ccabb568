import TestSupport
import Foundation
import SoundFiles
import Testing
@testable import MemoLibrary

@Suite struct ExportTests {
    @Test(arguments: FileFormat.allCases)
    func exportsToEachFormat(format: FileFormat) throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "Export me", format: .flac, seconds: 0.5)
        let destination = fixture.root.appendingPathComponent("out.\(format.fileExtensions[0])").path
        try library.export(memo, to: destination, format: format)
        let reader = try SoundFileReader(path: destination)
        #expect(reader.info.format == format)
        #expect(abs(reader.info.frames - 24_000) <= 2048, "\(reader.info.frames)")
        if format != .mp3 && format != .aiff {
            #expect(reader.metadata.title == "Export me")
        }
    }

    @Test func refusesToOverwriteAndExplainsBadConversions() throws {
        let fixture = try LibraryFixture()
        let library = try fixture.open()
        let memo = try fixture.record(into: library, title: "x", format: .wav)
        let destination = fixture.root.appendingPathComponent("copy.wav").path
        try library.export(memo, to: destination)
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data(contentsOf: URL(fileURLWithPath: memo.path)))
        try Data("other".utf8).write(to: URL(fileURLWithPath: destination))
        do {
            try library.export(memo, to: destination)
            Issue.record("an existing file was replaced")
        } catch {
            guard case .destinationExists(let path) = error else { throw error }
            #expect(path == destination)
            #expect(error.description.contains(destination) && error.description.contains("--force"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data("other".utf8))
        try library.export(memo, to: destination, replacing: true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data(contentsOf: URL(fileURLWithPath: memo.path)))
        // A folder is never replaced: the copy goes into it, named after the title.
        let intoFolder = try library.export(memo, to: fixture.root.path, replacing: true)
        #expect(intoFolder == fixture.root.appendingPathComponent("x.wav").path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: intoFolder)) == Data(contentsOf: URL(fileURLWithPath: memo.path)))
        #expect(throws: MemoLibraryError.self, "a folder that is not there") {
            try library.export(memo, to: fixture.root.appendingPathComponent("nowhere").path + "/")
        }
        #expect(throws: MemoLibraryError.self) { try library.export(memo, to: memo.path) }
        #expect(throws: MemoLibraryError.self) {
            try library.export(memo, to: fixture.root.appendingPathComponent("a.flac").path, format: .wav)
        }
    }
}
