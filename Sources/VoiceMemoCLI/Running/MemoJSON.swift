import Foundation
import MemoLibrary

extension Memo {
    /// The memo as `list --json` and `record --json` print it (PRODUCT.md §2, plus `state`).
    var json: JSONValue {
        .object([
            ("id", .int(id)),
            ("title", .string(title)),
            ("created", .string(Self.iso8601(created))),
            ("duration", .number(duration)),
            ("frames", .int(frames)),
            ("sample_rate", .int(Int64(sampleRate))),
            ("channels", .int(Int64(channels))),
            ("format", .string(format.rawValue)),
            ("encoding", .string(encoding.rawValue)),
            ("path", .string(path)),
            ("size", .int(size)),
            ("peak_db", .number(peakDB)),
            ("deleted_at", deletedAt.map { .string(Self.iso8601($0)) } ?? .null),
            ("state", .string(state.rawValue)),
        ])
    }

    /// `2026-11-29T14:03:12Z`.
    static func iso8601(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
