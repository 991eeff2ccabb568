import Foundation

/// Rewrites the RIFF and data chunk sizes of a WAV file left unfinished, to match the bytes on disk.
///
/// libsndfile reads such files anyway ("not closed properly"), but sox and most players trust the
/// header: arecord killed with -9 leaves sizes of 2 GiB or 0. Files that are not RIFF/WAVE, or
/// whose sizes already agree with the file, are left untouched.
enum WAVHeaderRepair {
    /// Repairs `path` if it is a WAV with stale sizes; returns whether it changed anything.
    @discardableResult
    static func repairIfStale(path: String) throws(SoundFileError) -> Bool {
        guard let file = FileHandle(forUpdatingAtPath: path) else {
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "cannot open for repair", osError: errno)
        }
        defer { try? file.close() }
        do {
            let fileSize = try file.seekToEnd()
            try file.seek(toOffset: 0)
            guard let layout = try layout(of: file, fileSize: fileSize), layout.isStale else { return false }
            let available = fileSize - layout.dataStart
            let dataSize = available - available % UInt64(max(1, layout.blockAlign))
            let newFileSize = layout.dataStart + dataSize
            if newFileSize < fileSize {
                try file.truncate(atOffset: newFileSize)
            }
            try write(UInt32(clamping: newFileSize - 8), at: 4, in: file)
            try write(UInt32(clamping: dataSize), at: layout.dataStart - 4, in: file)
            try file.synchronize()
            return true
        } catch let error as SoundFileError {
            throw error
        } catch {
            throw SoundFileError.foundation(error, kind: .write, path: path, doing: "repairing the WAV header failed")
        }
    }

    /// Where the data chunk starts, what its header says, and whether that disagrees with the file.
    private struct Layout {
        var dataStart: UInt64
        var declaredDataSize: UInt64
        var blockAlign: UInt16
        var isStale: Bool
    }

    private static func layout(of file: FileHandle, fileSize: UInt64) throws -> Layout? {
        guard let head = try file.read(upToCount: 12), head.count == 12,
            ascii(head, 0) == "RIFF", ascii(head, 8) == "WAVE"
        else { return nil }
        var offset: UInt64 = 12
        var blockAlign: UInt16 = 1
        while offset + 8 <= fileSize {
            try file.seek(toOffset: offset)
            guard let chunk = try file.read(upToCount: 8), chunk.count == 8 else { return nil }
            let id = ascii(chunk, 0)
            let size = UInt64(littleEndian32(chunk, 4))
            if id == "fmt ", let format = try file.read(upToCount: 16), format.count >= 14 {
                blockAlign = UInt16(format[12]) | UInt16(format[13]) << 8
            }
            if id == "data" {
                let start = offset + 8
                let end = start + size + size % 2
                let stale = size == 0 || end > fileSize || (end < fileSize && !hasChunk(in: file, at: end, fileSize: fileSize))
                return Layout(dataStart: start, declaredDataSize: size, blockAlign: blockAlign, isStale: stale)
            }
            offset += 8 + size + size % 2
        }
        return nil
    }

    /// Whether a plausible chunk (printable id, size within the file) starts at `offset`.
    private static func hasChunk(in file: FileHandle, at offset: UInt64, fileSize: UInt64) -> Bool {
        guard offset + 8 <= fileSize, (try? file.seek(toOffset: offset)) != nil,
            let header = try? file.read(upToCount: 8), header.count == 8
        else { return false }
        let printable = header.prefix(4).allSatisfy { (0x20...0x7E).contains($0) }
        return printable && offset + 8 + UInt64(littleEndian32(header, 4)) <= fileSize
    }

    private static func write(_ value: UInt32, at offset: UInt64, in file: FileHandle) throws {
        try file.seek(toOffset: offset)
        let bytes = withUnsafeBytes(of: value.littleEndian) { Data($0) }
        try file.write(contentsOf: bytes)
    }

    private static func ascii(_ data: Data, _ offset: Int) -> String {
        let start = data.startIndex + offset
        return String(decoding: data[start..<start + 4], as: UTF8.self)
    }

    private static func littleEndian32(_ data: Data, _ offset: Int) -> UInt32 {
        let start = data.startIndex + offset
        return (0..<4).reduce(UInt32(0)) { value, index in value | UInt32(data[start + index]) << (8 * index) }
    }
}
