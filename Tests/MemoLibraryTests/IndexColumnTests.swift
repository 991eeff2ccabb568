import Foundation
import SoundFiles
import Testing
@testable import MemoLibrary

/// The one declaration of the memo table's columns (`MemoColumn.all`) against the table the
/// migrations build, and a row through it both ways.
@Suite struct IndexColumnTests {
    private static func migratedIndex() throws -> MemoIndex {
        let index = MemoIndex(database: try SQLiteDatabase(path: ":memory:", mode: .readWriteCreate), folder: "/library")
        try index.migrate()
        return index
    }

    @Test func theDeclarationsAreTheMigratedTable() throws {
        let index = try Self.migratedIndex()
        defer { index.database.close() }
        // PRAGMA table_info: cid, name, type, notnull, dflt_value, pk.
        let table = try index.database.query("PRAGMA table_info(memos)")
        #expect(table.map { $0.text(1) ?? "" } == MemoColumn.all.map(\.name))
        for (row, column) in zip(table, MemoColumn.all) {
            let words = column.declaration.split(separator: " ").map(String.init)
            #expect(row.text(2) == words.first, "\(column.name)'s type")
            #expect((row.integer(3) == 1) == column.declaration.contains("NOT NULL"), "\(column.name) NOT NULL")
            #expect((row.integer(5) == 1) == column.declaration.contains("PRIMARY KEY"), "\(column.name) key")
        }
    }

    @Test func aMemoReadsBackAsItWasWritten() throws {
        let index = try Self.migratedIndex()
        defer { index.database.close() }
        var written = Memo(
            id: 41, title: "Every field", created: Date(timeIntervalSince1970: 1_795_960_992.25), duration: 2.5,
            frames: 110_250, sampleRate: 44_100, channels: 1, format: .ogg, encoding: .vorbis,
            path: "/library/.trash/a.ogg", size: 12_345, peakDB: -3.5, state: .recovered,
            deletedAt: Date(timeIntervalSince1970: 1_795_970_000.5), loudnessLUFS: -23.25, truePeakDBTP: -1.5,
            loudnessRange: 7.75, clipCount: 3)
        written.deletionReason = .replaced(by: .trim)
        #expect(try index.insert(written, relativePath: ".trash/a.ogg") == 41)
        #expect(try index.memo(id: 41) == written)

        var unknown = written
        unknown.id = 0
        unknown.path = "/library/b.ogg"
        unknown.deletedAt = nil
        unknown.loudnessLUFS = .nan
        unknown.truePeakDBTP = nil
        unknown.clipCount = nil
        let id = try index.insert(unknown, relativePath: "b.ogg")
        let read = try #require(try index.memo(id: id))
        #expect(id != 41 && read.id == id, "id 0 lets SQLite choose")
        #expect(read.deletedAt == nil && read.truePeakDBTP == nil && read.clipCount == nil)
        #expect(read.loudnessLUFS == nil, "a figure that is not finite is stored as unknown")
    }
}
