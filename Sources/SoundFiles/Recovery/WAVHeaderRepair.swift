import Foundation

/// Rewrites the sizes of a WAV file left unfinished (RIFF/WAVE or RF64) to match the bytes on disk.
///
/// libsndfile reads a stale RIFF anyway ("not closed properly"), but sox and most players trust
/// the header: arecord killed with -9 leaves sizes of 2 GiB or 0. An RF64 file's sizes are in
/// its `ds64` chunk, and every reader (libsndfile too) stops where they say, so a stale one
/// loses what was written after the last header rewrite unless it is repaired.
///
/// A recording killed in the moment after it passed 4 GiB and before its header was rewritten
/// as RF64 is a RIFF whose audio runs past what 32-bit sizes can say: it is turned into RF64
/// in place, as libsndfile turns it when it rewrites the header — the 24-byte `JUNK` chunk
/// libsndfile keeps after `WAVE` and the `fact` chunk make room for `ds64` — so nothing is
/// moved and every frame stays readable.
///
/// Files that are not RIFF/WAVE or RF64, or whose sizes already agree with the file, are left
/// untouched.
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
            let frames = dataSize / UInt64(max(1, layout.blockAlign))
            if layout.isRF64 {
                try write64(newFileSize - 8, at: IFFChunksInPlace.rf64SizeOffset, in: file)
                try write64(dataSize, at: IFFChunksInPlace.rf64SizeOffset + 8, in: file)
                try write64(frames, at: IFFChunksInPlace.rf64SizeOffset + 16, in: file)
                try write(UInt32.max, at: layout.dataStart - 4, in: file)
            } else if newFileSize - 8 <= UInt64(UInt32.max) {
                try write(UInt32(newFileSize - 8), at: 4, in: file)
                try write(UInt32(dataSize), at: layout.dataStart - 4, in: file)
                if let factOffset = layout.factOffset, layout.hasFixedWidthSamples {
                    try write(UInt32(clamping: frames), at: factOffset + 8, in: file)
                }
            } else if let original = try readHeader(of: file, layout: layout),
                let header = rf64Header(for: layout, original: original, fileSize: newFileSize, dataSize: dataSize, frames: frames)
            {
                // One write: a kill while it runs leaves the old header or the new one.
                try file.seek(toOffset: 0)
                try file.write(contentsOf: header)
            } else {
                // No room for ds64 (not written by libsndfile's RF64 writer): the most RIFF can say.
                try write(UInt32.max, at: 4, in: file)
                try write(UInt32(clamping: dataSize), at: layout.dataStart - 4, in: file)
            }
            try file.synchronize()
            return true
        } catch let error as SoundFileError {
            throw error
        } catch {
            throw SoundFileError.foundation(error, kind: .write, path: path, doing: "repairing the WAV header failed")
        }
    }

    /// Where the data chunk starts, what the header says, and whether that disagrees with the file.
    private struct Layout {
        var dataStart: UInt64
        var blockAlign: UInt16
        var isStale: Bool
        var isRF64: Bool
        /// The chunks before `data` (RIFF only): id, offset of the header, whole size with padding.
        var chunksBeforeData: [(id: String, offset: UInt64, length: UInt64)]
        var factOffset: UInt64?
        /// PCM, float, µ-law or A-law (or extensible): a `fact` chunk counts frames of blockAlign bytes.
        var hasFixedWidthSamples: Bool
    }

    private static func layout(of file: FileHandle, fileSize: UInt64) throws -> Layout? {
        guard let head = try file.read(upToCount: 44), head.count >= 12, ascii(head, 8) == "WAVE" else { return nil }
        let rf64 = IFFChunksInPlace.rf64Sizes(head)
        guard rf64 != nil || ascii(head, 0) == "RIFF" else { return nil }
        var offset: UInt64 = 12
        var blockAlign: UInt16 = 1
        var fixedWidth = false
        var before: [(id: String, offset: UInt64, length: UInt64)] = []
        var factOffset: UInt64?
        while offset + 8 <= fileSize {
            try file.seek(toOffset: offset)
            guard let chunk = try file.read(upToCount: 8), chunk.count == 8 else { return nil }
            let id = ascii(chunk, 0)
            var size = UInt64(littleEndian32(chunk, 4))
            if id == "fmt ", let format = try file.read(upToCount: 16), format.count >= 14 {
                blockAlign = UInt16(format[format.startIndex + 12]) | UInt16(format[format.startIndex + 13]) << 8
                let tag = UInt16(format[format.startIndex]) | UInt16(format[format.startIndex + 1]) << 8
                fixedWidth = [1, 3, 6, 7, 0xFFFE].contains(tag)
            }
            if id == "fact" { factOffset = offset }
            if id == "data" {
                if let rf64, size == UInt64(UInt32.max) { size = rf64.dataSize }
                let start = offset + 8
                let end = start + size + size % 2
                // A RIFF past 4 GiB is a recording killed as it crossed: its sizes cannot be right.
                let stale = size == 0 || end > fileSize || (end < fileSize && !hasChunk(in: file, at: end, fileSize: fileSize))
                    || (rf64 == nil && fileSize - 8 > UInt64(UInt32.max))
                return Layout(
                    dataStart: start, blockAlign: blockAlign, isStale: stale, isRF64: rf64 != nil,
                    chunksBeforeData: before, factOffset: factOffset, hasFixedWidthSamples: fixedWidth)
            }
            before.append((id, offset, 8 + size + size % 2))
            offset += 8 + size + size % 2
        }
        return nil
    }

    /// The header of the same file as RF64, exactly as long as the RIFF one, or `nil` when
    /// there is no room: `RF64`, `ds64`, the chunks before `data` but the first `JUNK` and
    /// `fact` (in their order), a `JUNK` filling what is left, `data` with 0xFFFFFFFF.
    private static func rf64Header(
        for layout: Layout, original: Data, fileSize: UInt64, dataSize: UInt64, frames: UInt64
    ) -> Data? {
        guard let reserve = layout.chunksBeforeData.first, reserve.id == "JUNK" else { return nil }
        var header = Data("RF64".utf8)
        header.append(le32(UInt32.max))
        header.append(Data("WAVE".utf8))
        header.append(Data("ds64".utf8))
        header.append(le32(28))
        header.append(le64(fileSize - 8))
        header.append(le64(dataSize))
        header.append(le64(frames))
        header.append(le32(0))
        var kept: [(offset: UInt64, length: UInt64)] = []
        for chunk in layout.chunksBeforeData.dropFirst() where chunk.id != "fact" {
            kept.append((chunk.offset, chunk.length))
        }
        let keptLength = kept.reduce(UInt64(0)) { $0 + $1.length }
        let headerEnd = layout.dataStart - 8
        let used = UInt64(header.count) + keptLength
        guard used <= headerEnd else { return nil }
        let filler = headerEnd - used
        guard filler == 0 || filler >= 8 else { return nil }
        for chunk in kept {
            let start = original.startIndex + Int(chunk.offset)
            header.append(original[start..<start + Int(chunk.length)])
        }
        if filler >= 8 {
            header.append(Data("JUNK".utf8))
            header.append(le32(UInt32(filler - 8)))
            header.append(Data(count: Int(filler - 8)))
        }
        header.append(Data("data".utf8))
        header.append(le32(UInt32.max))
        return header
    }

    /// The bytes before the audio (at most 64 KiB: a header that long is not libsndfile's).
    private static func readHeader(of file: FileHandle, layout: Layout) throws -> Data? {
        guard layout.dataStart <= 65536 else { return nil }
        try file.seek(toOffset: 0)
        guard let bytes = try file.read(upToCount: Int(layout.dataStart)), bytes.count == Int(layout.dataStart) else { return nil }
        return bytes
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
        try file.write(contentsOf: le32(value))
    }

    private static func write64(_ value: UInt64, at offset: UInt64, in file: FileHandle) throws {
        try file.seek(toOffset: offset)
        try file.write(contentsOf: le64(value))
    }

    private static func le32(_ value: UInt32) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }

    private static func le64(_ value: UInt64) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
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
