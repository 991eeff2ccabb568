import Foundation
import Vocabulary
import SoundFiles

/// A memo as a row of the `memos` table: the memo, and its path relative to the library folder
/// (what the index stores; `Memo.path` is absolute).
struct MemoIndexRow {
    var memo: Memo
    var relativePath: String
}

/// One column of the index's `memos` table: its name, its SQL declaration, the schema version
/// that added it, and how a `MemoIndexRow` field is bound into it and read out of it.
///
/// `MemoColumn.all` is the one list of them: the SELECT list, the INSERT and the decoding of a row
/// (each column read at its place in that list) all come from it, so a column is named once.
struct MemoColumn: Sendable {
    let name: String
    /// The type and constraints, as `ALTER TABLE memos ADD COLUMN` takes them.
    let declaration: String
    /// The schema version (`IndexSchema`) that added it; 1 for the table as first created.
    let version: Int64
    let bind: @Sendable (MemoIndexRow) -> SQLiteValue
    /// Sets the field from the column at `position` of the statement's current row.
    let read: @Sendable (_ statement: SQLiteStatement, _ position: Int32, _ row: inout MemoIndexRow) -> Void
}

extension MemoColumn {
    /// The columns of `memos`, in the order of the table (and of every SELECT of memos).
    ///
    /// A new column goes at the end, with the version whose migration adds it
    /// (`IndexSchema.addingColumns(of:)`). A column is read after those before it: `encoding`'s
    /// fallback looks at the `format` already read.
    static let all: [MemoColumn] = [
        rowID("id", "INTEGER PRIMARY KEY AUTOINCREMENT", \.memo.id),
        text("title", "TEXT NOT NULL", \.memo.title),
        date("created", "REAL NOT NULL", \.memo.created),
        real("duration", "REAL NOT NULL DEFAULT 0", \.memo.duration),
        integer("frames", "INTEGER NOT NULL DEFAULT 0", \.memo.frames),
        integer("sample_rate", "INTEGER NOT NULL", \.memo.sampleRate),
        integer("channels", "INTEGER NOT NULL", \.memo.channels),
        choice("format", "TEXT NOT NULL", \.memo.format) { _ in .wav },
        choice("encoding", "TEXT NOT NULL", \.memo.encoding) { $0.memo.format.defaultEncoding },
        text("path", "TEXT NOT NULL UNIQUE", \.relativePath),
        integer("size", "INTEGER NOT NULL DEFAULT 0", \.memo.size),
        real("peak_db", "REAL NOT NULL DEFAULT -160", \.memo.peakDB),
        choice("state", "TEXT NOT NULL", \.memo.state) { _ in .damaged },
        date("deleted_at", "REAL", \.memo.deletedAt),
        real("loudness_lufs", "REAL", since: 2, \.memo.loudnessLUFS),
        real("true_peak_dbtp", "REAL", since: 2, \.memo.truePeakDBTP),
        real("lra", "REAL", since: 2, \.memo.loudnessRange),
        integer("clips", "INTEGER", since: 2, \.memo.clipCount),
        reason("deleted_reason", "TEXT", since: 7),
        tagList("tags", "TEXT NOT NULL DEFAULT ''", since: 8, \.memo.tags),
        flag("starred", "INTEGER NOT NULL DEFAULT 0", since: 8, \.memo.isStarred),
        roles("channel_roles", "TEXT", since: 9, \.memo.channelRoles),
    ]

    /// `SELECT` list of an index at schema `version`: the columns it has, and NULL in the place of
    /// each one added since (read as unknown or empty).
    static func selectList(version: Int64 = IndexSchema.currentVersion) -> String {
        all.map { $0.version <= version ? $0.name : "NULL" }.joined(separator: ", ")
    }

    /// Inserts every column; its values are `values(of:)`.
    static let insertStatement =
        "INSERT INTO memos (" + all.map(\.name).joined(separator: ", ") + ") VALUES ("
        + all.map { _ in "?" }.joined(separator: ", ") + ")"

    static func values(of row: MemoIndexRow) -> [SQLiteValue] {
        all.map { $0.bind(row) }
    }

    /// The memo in the statement's current row, selected with a `selectList`; `folder` makes its path absolute.
    static func memo(from statement: SQLiteStatement, folder: String) -> Memo {
        var row = MemoIndexRow(memo: placeholder, relativePath: "")
        for (position, read) in readers.enumerated() {
            read(statement, Int32(position), &row)
        }
        row.memo.path = folder + "/" + row.relativePath
        return row.memo
    }

    /// Each column's `read`, in its place: a row is read for every memo listed, and iterating
    /// `all` would copy (retain and release) each column's names and closures per row.
    private static let readers = all.map(\.read)

    /// What a row is read into; every field is then set from its column.
    private static let placeholder = Memo(
        id: 0, title: "", created: Date(timeIntervalSince1970: 0), duration: 0, frames: 0, sampleRate: 0,
        channels: 0, format: .wav, encoding: .pcm16, path: "", size: 0, peakDB: -160, state: .damaged)
}

// MARK: Kinds of column

extension MemoColumn {
    typealias Field<Value> = WritableKeyPath<MemoIndexRow, Value> & Sendable

    /// A column that stores `field` as `bind` makes it and reads it back with `read`.
    private static func stored<Value>(
        _ name: String, _ declaration: String, _ version: Int64, _ field: Field<Value>,
        bind: @escaping @Sendable (Value) -> SQLiteValue,
        read: @escaping @Sendable (SQLiteStatement, Int32) -> Value
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { bind($0[keyPath: field]) },
            read: { statement, position, row in row[keyPath: field] = read(statement, position) })
    }

    /// `read`, or `nil` for NULL.
    private static func nullable<Value>(
        _ read: @escaping @Sendable (SQLiteStatement, Int32) -> Value
    ) -> @Sendable (SQLiteStatement, Int32) -> Value? {
        { statement, position in statement.isNull(position) ? nil : read(statement, position) }
    }

    /// The row id: 0 in a memo not yet stored binds NULL, so SQLite chooses.
    private static func rowID(_ name: String, _ declaration: String, _ field: Field<Int64>) -> MemoColumn {
        stored(name, declaration, 1, field, bind: { $0 > 0 ? .integer($0) : .null }, read: { $0.int64($1) })
    }

    private static func text(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<String>
    ) -> MemoColumn {
        stored(name, declaration, version, field, bind: { .text($0) }, read: { $0.text($1) })
    }

    private static func real(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Double>
    ) -> MemoColumn {
        stored(name, declaration, version, field, bind: { .real($0) }, read: { $0.double($1) })
    }

    /// A figure that may be unknown: NULL for `nil`, and for a value that is not finite.
    private static func real(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Double?>
    ) -> MemoColumn {
        stored(name, declaration, version, field, bind: { .finite($0) }, read: nullable { $0.double($1) })
    }

    private static func integer<Value: FixedWidthInteger & Sendable>(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Value>
    ) -> MemoColumn {
        stored(
            name, declaration, version, field, bind: { .integer(Int64($0)) },
            read: { Value(truncatingIfNeeded: $0.int64($1)) })
    }

    private static func integer(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Int64?>
    ) -> MemoColumn {
        stored(
            name, declaration, version, field, bind: { $0.map { .integer($0) } ?? .null },
            read: nullable { $0.int64($1) })
    }

    /// Seconds since 1970.
    private static func date(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Date>
    ) -> MemoColumn {
        stored(
            name, declaration, version, field, bind: { .real($0.timeIntervalSince1970) },
            read: { Date(timeIntervalSince1970: $0.double($1)) })
    }

    /// Seconds since 1970, or NULL.
    private static func date(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Date?>
    ) -> MemoColumn {
        stored(
            name, declaration, version, field, bind: { $0.map { .real($0.timeIntervalSince1970) } ?? .null },
            read: nullable { Date(timeIntervalSince1970: $0.double($1)) })
    }

    /// Tags as one line, separated by spaces (`MemoTag.joined`); NULL (an older index read
    /// as it is) reads as none.
    private static func tagList(
        _ name: String, _ declaration: String, since version: Int64, _ field: Field<[String]>
    ) -> MemoColumn {
        stored(
            name, declaration, version, field, bind: { .text(MemoTag.joined($0)) },
            read: { statement, position in statement.isNull(position) ? [] : MemoTag.split(statement.text(position)) })
    }

    /// A yes or no as 1 or 0; NULL reads as no.
    private static func flag(_ name: String, _ declaration: String, since version: Int64, _ field: Field<Bool>) -> MemoColumn {
        stored(
            name, declaration, version, field, bind: { .integer($0 ? 1 : 0) },
            read: { statement, position in !statement.isNull(position) && statement.int64(position) != 0 })
    }

    /// A meeting's channel roles in their text form (`mic 1, desktop 2`); NULL, or text that
    /// names no roles, reads as none.
    private static func roles(
        _ name: String, _ declaration: String, since version: Int64, _ field: Field<ChannelRoles?>
    ) -> MemoColumn {
        stored(
            name, declaration, version, field, bind: { $0.map { .text($0.description) } ?? .null },
            read: { statement, position in statement.isNull(position) ? nil : ChannelRoles(statement.text(position)) })
    }

    /// Why a memo is in Recently Deleted (`DeletionReason.storedText`), read after `deleted_at`:
    /// NULL in a deleted row (one deleted before the column existed) reads as `.deleted`, and
    /// the reason of a row that is not deleted as `nil`.
    private static func reason(_ name: String, _ declaration: String, since version: Int64) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { row in row.memo.deletedAt == nil ? .null : (row.memo.deletionReason ?? .deleted).sqliteValue },
            read: { statement, position, row in
                guard row.memo.deletedAt != nil else {
                    row.memo.deletionReason = nil
                    return
                }
                row.memo.deletionReason = DeletionReason(storedText: statement.isNull(position) ? nil : statement.text(position))
            })
    }

    /// A case stored as its raw text; `unknown` gives the value for text that names no case
    /// (from the row read so far).
    private static func choice<Value: RawRepresentable<String> & SendableMetatype>(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Value>,
        unknown: @escaping @Sendable (MemoIndexRow) -> Value
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { .text($0[keyPath: field].rawValue) },
            read: { statement, position, row in
                row[keyPath: field] = Value(rawValue: statement.text(position)) ?? unknown(row)
            })
    }
}

extension DeletionReason {
    /// The reason as the index stores it (`deleted_reason`).
    var sqliteValue: SQLiteValue { .text(storedText) }
}

extension SQLiteValue {
    /// A finite number, or NULL (for `nil`, an infinity or NaN: a figure not known).
    static func finite(_ value: Double?) -> SQLiteValue {
        guard let value, value.isFinite else { return .null }
        return .real(value)
    }
}
