import Foundation
import Metering

/// Peak envelopes in the index (schema version 5): `envelopes(memo_id, block_frames, peaks)`,
/// the peaks as base64 text (the index's values are text and numbers; 96 kB for an hour).
extension MemoIndex {
    /// Whether the index has the envelopes table: a read-only library may be reading an index
    /// written before version 5, which it cannot migrate.
    func hasEnvelopeTable() throws(SQLiteError) -> Bool {
        try !database.query("SELECT 1 FROM sqlite_master WHERE name = 'envelopes'").isEmpty
    }

    func storeEnvelope(memoID: Int64, _ envelope: PeakEnvelope) throws(SQLiteError) {
        try database.run(
            "INSERT OR REPLACE INTO envelopes (memo_id, block_frames, peaks) VALUES (?, ?, ?)",
            [.integer(memoID), .integer(Int64(envelope.blockFrames)), .text(Data(envelope.peaks).base64EncodedString())])
    }

    /// Stores `envelope` as memo `memoID`'s, or removes the one it has (`nil`: its audio was
    /// read again and not measured); nothing in an index without the table.
    func replaceEnvelope(memoID: Int64, with envelope: PeakEnvelope?) throws(SQLiteError) {
        guard try hasEnvelopeTable() else { return }
        if let envelope {
            try storeEnvelope(memoID: memoID, envelope)
        } else {
            try database.run("DELETE FROM envelopes WHERE memo_id = ?", [.integer(memoID)])
        }
    }

    /// Memo `id`'s envelope, or `nil` when it has none (or a stored one that does not decode).
    func envelope(id: Int64) throws(SQLiteError) -> PeakEnvelope? {
        var found: PeakEnvelope?
        try database.forEachRow("SELECT block_frames, peaks FROM envelopes WHERE memo_id = ?", [.integer(id)]) {
            statement throws(SQLiteError) in
            if let data = Data(base64Encoded: statement.text(1)) {
                found = PeakEnvelope(blockFrames: Int(statement.int64(0)), peaks: [UInt8](data))
            }
        }
        return found
    }
}
