import Foundation
import SoundFiles

/// A memo as a row of the `memos` table: the memo, and its path relative to the library folder
/// (what the index stores; `Memo.path` is absolute).
struct MemoRow {
    var memo: Memo
    var relativePath: String
}

/// One column of the index's `memos` table: its name, its SQL declaration, the schema version
/// that added it, and how a `MemoRow` field is bound into it and read out of it.
///
/// `MemoColumn.all` is the one list of them: the SELECT list, the INSERT and the decoding of a row
/// (each column read at its place in that list) all come from it, so a column is named once.
struct MemoColumn: Sendable {
    let name: String
    /// The type and constraints, as `ALTER TABLE memos ADD COLUMN` takes them.
    let declaration: String
    /// The schema version (`IndexSchema`) that added it; 1 for the table as first created.
    let version: Int64
    let bind: @Sendable (MemoRow) -> SQLiteValue
    /// Sets the field from the column at `position` of the statement's current row.
    let read: @Sendable (_ statement: SQLiteStatement, _ position: Int32, _ row: inout MemoRow) -> Void
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

    static func values(of row: MemoRow) -> [SQLiteValue] {
        all.map { $0.bind(row) }
    }

    /// The memo in the statement's current row, selected with a `selectList`; `folder` makes its path absolute.
    static func memo(from statement: SQLiteStatement, folder: String) -> Memo {
        var row = MemoRow(memo: placeholder, relativePath: "")
        for (position, column) in all.enumerated() {
            column.read(statement, Int32(position), &row)
        }
        row.memo.path = folder + "/" + row.relativePath
        return row.memo
    }

    /// What a row is read into; every field is then set from its column.
    private static let placeholder = Memo(
        id: 0, title: "", created: Date(timeIntervalSince1970: 0), duration: 0, frames: 0, sampleRate: 0,
        channels: 0, format: .wav, encoding: .pcm16, path: "", size: 0, peakDB: -160, state: .damaged)
}

// MARK: Kinds of column

extension MemoColumn {
    typealias Field<Value> = WritableKeyPath<MemoRow, Value> & Sendable

    /// The row id: 0 in a memo not yet stored binds NULL, so SQLite chooses.
    private static func rowID(_ name: String, _ declaration: String, _ field: Field<Int64>) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: 1,
            bind: { $0[keyPath: field] > 0 ? .integer($0[keyPath: field]) : .null },
            read: { statement, position, row in row[keyPath: field] = statement.int64(position) })
    }

    private static func text(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<String>
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { .text($0[keyPath: field]) },
            read: { statement, position, row in row[keyPath: field] = statement.text(position) })
    }

    private static func real(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Double>
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { .real($0[keyPath: field]) },
            read: { statement, position, row in row[keyPath: field] = statement.double(position) })
    }

    /// A figure that may be unknown: NULL for `nil`, and for a value that is not finite.
    private static func real(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Double?>
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { .finite($0[keyPath: field]) },
            read: { statement, position, row in
                row[keyPath: field] = statement.isNull(position) ? nil : statement.double(position)
            })
    }

    private static func integer<Value: FixedWidthInteger & Sendable>(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Value>
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { .integer(Int64($0[keyPath: field])) },
            read: { statement, position, row in
                row[keyPath: field] = Value(truncatingIfNeeded: statement.int64(position))
            })
    }

    private static func integer(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Int64?>
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { $0[keyPath: field].map { .integer($0) } ?? .null },
            read: { statement, position, row in
                row[keyPath: field] = statement.isNull(position) ? nil : statement.int64(position)
            })
    }

    /// Seconds since 1970.
    private static func date(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Date>
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { .real($0[keyPath: field].timeIntervalSince1970) },
            read: { statement, position, row in
                row[keyPath: field] = Date(timeIntervalSince1970: statement.double(position))
            })
    }

    /// Seconds since 1970, or NULL.
    private static func date(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Date?>
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { $0[keyPath: field].map { .real($0.timeIntervalSince1970) } ?? .null },
            read: { statement, position, row in
                row[keyPath: field] =
                    statement.isNull(position) ? nil : Date(timeIntervalSince1970: statement.double(position))
            })
    }

    /// A case stored as its raw text; `unknown` gives the value for text that names no case.
    private static func choice<Value: RawRepresentable<String> & SendableMetatype>(
        _ name: String, _ declaration: String, since version: Int64 = 1, _ field: Field<Value>,
        unknown: @escaping @Sendable (MemoRow) -> Value
    ) -> MemoColumn {
        MemoColumn(
            name: name, declaration: declaration, version: version,
            bind: { .text($0[keyPath: field].rawValue) },
            read: { statement, position, row in
                row[keyPath: field] = Value(rawValue: statement.text(position)) ?? unknown(row)
            })
    }
}

extension SQLiteValue {
    /// A finite number, or NULL (for `nil`, an infinity or NaN: a figure not known).
    static func finite(_ value: Double?) -> SQLiteValue {
        guard let value, value.isFinite else { return .null }
        return .real(value)
    }
}
