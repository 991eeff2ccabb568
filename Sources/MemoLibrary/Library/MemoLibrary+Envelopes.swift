import Metering
import SoundFiles

/// Peak envelopes: kept with each memo in the index, so that a waveform never reads the audio.
/// They are measured with the statistics (`ProgrammeMeter`): a recording's on its recorder's
/// writer thread, stored when it is finished; an edit's as it writes; an adopted, recovered or
/// re-read file's as it is decoded. A memo without one (recorded before version 5, or listed
/// by a read-only library, which decodes nothing) is measured from its file the first time it
/// is asked for, and the result stored.
extension MemoLibrary {
    /// Memo `id`'s stored envelope, or `nil`.
    public func storedEnvelope(ofMemo id: Int64) throws(MemoLibraryError) -> PeakEnvelope? {
        try indexCall { () throws(SQLiteError) in
            guard try index.hasEnvelopeTable() else { return nil }
            return try index.envelope(id: id)
        }
    }

    /// Memo `memo`'s envelope: the stored one, else measured from its file (and stored, unless
    /// the library is read-only).
    ///
    /// - Throws: `.notAllowed` for a memo being recorded, missing or damaged; `.sound` when
    ///   its file cannot be read.
    public func envelope(of memo: Memo) throws(MemoLibraryError) -> PeakEnvelope {
        if let stored = try storedEnvelope(ofMemo: memo.id) { return stored }
        switch memo.state {
        case .recording: throw .notAllowed(memo: memo, reason: "it is being recorded; its waveform is drawn once it stops")
        case .missing: throw .notAllowed(memo: memo, reason: "its file is missing")
        case .damaged: throw .notAllowed(memo: memo, reason: Self.damagedReason(of: memo))
        case .complete, .recovered: break
        }
        let envelope: PeakEnvelope
        do throws(SoundFileError) {
            envelope = try Self.measureEnvelope(path: memo.path)
        } catch {
            throw .sound(error)
        }
        if !isReadOnly {
            try write { () throws(MemoLibraryError) in
                guard try existing(memo.id).path == memo.path else { return }
                try indexCall { () throws(SQLiteError) in try index.storeEnvelope(memoID: memo.id, envelope) }
            }
        }
        return envelope
    }

    /// Decodes the file at `path` (as floats) for its envelope: the reference a stored one is
    /// checked against, and the measure of a memo that has none.
    public static func measureEnvelope(path: String) throws(SoundFileError) -> PeakEnvelope {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var envelope = PeakEnvelope(channels: reader.info.channels, sampleRate: reader.info.sampleRate)
        let channels = max(1, reader.info.channels)
        var buffer = [Float](repeating: 0, count: 8_192 * channels)
        while true {
            let result = buffer.withUnsafeMutableBytes { bytes -> Result<Int, SoundFileError> in
                guard let base = bytes.baseAddress else { return .success(0) }
                return Result { () throws(SoundFileError) -> Int in try reader.read(into: base, frames: 8_192, as: .float32) }
            }
            let count = try result.get()
            guard count > 0 else { break }
            buffer.withUnsafeBufferPointer { envelope.consume(UnsafeBufferPointer(rebasing: $0[0..<(count * channels)])) }
        }
        return envelope.finished
    }
}
