import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Replaces chunks of a WAV (RIFF, little-endian) or AIFF (FORM, big-endian) file in place,
/// crash-safely, without touching its audio: the new chunks are appended after the last one and
/// the old ones turned into padding (`JUNK` in RIFF, `APPL` with no signature in AIFF — AIFF has
/// no free chunk id, and an unknown `APPL` body is skipped by every reader).
///
/// The steps are `WAVTitleInPlace`'s, so a crash (kill -9, power) at any point leaves the audio
/// whole and the chunks either the old or the new ones:
/// 1. the new chunks are written past the end the container's size covers, flushed (readers go
///    by that size); chunks left there by a replacement stopped after this step are written over;
/// 2. the container's size is made to include them (one 4-byte write), flushed;
/// 3. each older chunk being replaced gets the padding id (one 4-byte write each, its body
///    zeroed), flushed.
/// The file grows by the new chunks' size each time.
///
/// An RF64 file (a WAV past 4 GiB: `RF64`, its sizes in the `ds64` chunk that comes first) is
/// a `.riff` container too: its size is the 64-bit RIFF size in `ds64` (step 2 is one 8-byte
/// write there), and its `data` chunk's 32-bit size is `0xFFFFFFFF`, the real one in `ds64`.
///
/// Only plain files whose chunks fill the container exactly (as libsndfile writes them), but
/// for such a pending tail, are changed; anything else (trailing bytes, a RIFF whose new
/// chunks would take it past 4 GiB) is left alone and reported as `false`.
enum IFFChunksInPlace {
    /// The two containers.
    enum Container {
        case riff
        case aiff

        var bigEndian: Bool { self == .aiff }
        var containerID: String { self == .riff ? "RIFF" : "FORM" }
        var paddingID: String { self == .riff ? "JUNK" : "APPL" }

        func accepts(formType: String) -> Bool {
            self == .riff ? formType == "WAVE" : formType == "AIFF" || formType == "AIFC"
        }
    }

    /// One chunk: where its header starts, its id, its size, and (for `LIST`) its list type.
    struct Chunk: Equatable {
        var offset: UInt64
        var id: String
        var size: UInt64
        var listType: String?

        var end: UInt64 { offset + 8 + size + size % 2 }
    }

    /// The bodies of the chunks of `path` that `matches` selects, in file order; `nil` when the
    /// file is not a plain `container` file.
    /// A tail a replacement stopped after step 1 left (starting with `pendingFirstID`) is not read.
    static func bodies(
        of path: String, in container: Container, pendingFirstID: String?, matching matches: (Chunk) -> Bool
    ) -> [Data]? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let layout = try? layout(of: file, container: container, pendingFirstID: pendingFirstID) else { return nil }
        var bodies: [Data] = []
        for chunk in layout.chunks where matches(chunk) {
            guard (try? file.seek(toOffset: chunk.offset + 8)) != nil,
                let body = try? file.read(upToCount: Int(chunk.size)), body.count == Int(chunk.size)
            else { return nil }
            bodies.append(body)
        }
        return bodies
    }

    /// The chunks of `path` when it is a plain `container` file (see `bodies`), else `nil`.
    static func chunks(of path: String, in container: Container, pendingFirstID: String?) -> [Chunk]? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        return (try? layout(of: file, container: container, pendingFirstID: pendingFirstID))?.chunks
    }

    /// Appends `chunks` (complete chunks, headers included, each of even length, the first with
    /// the id `pendingFirstID`) and pads every old chunk `replaces` selects.
    ///
    /// - Parameters:
    ///   - purpose: what is being done, for messages ("writing its markers").
    ///   - lastStep: test seam: stop after step 1 or 2, as a crash there would.
    /// - Returns: `false`, having changed nothing, when the file is not laid out for it.
    /// - Throws: `SoundFileError` for a failed read, write or flush; the file is valid either way.
    static func replace(
        in path: String, container: Container, with chunks: Data, pendingFirstID: String,
        replacing replaces: (Chunk) -> Bool, purpose: String, lastStep: Int = 3
    ) throws(SoundFileError) -> Bool {
        guard let file = FileHandle(forUpdatingAtPath: path) else {
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "cannot open it for \(purpose)", osError: errno)
        }
        defer { try? file.close() }
        do {
            guard let layout = try layout(of: file, container: container, pendingFirstID: pendingFirstID) else { return false }
            let end = layout.containerEnd
            let newSize = end + UInt64(chunks.count) - 8
            guard layout.isRF64 || newSize <= UInt64(UInt32.max) else { return false }
            try file.seek(toOffset: end)
            try file.write(contentsOf: chunks)
            try file.truncate(atOffset: end + UInt64(chunks.count))
            try file.synchronize()
            if lastStep == 1 { return true }
            if layout.isRF64 {
                try file.seek(toOffset: rf64SizeOffset)
                try file.write(contentsOf: withUnsafeBytes(of: newSize.littleEndian) { Data($0) })
            } else {
                try file.seek(toOffset: 4)
                try file.write(contentsOf: bytes(UInt32(newSize), bigEndian: container.bigEndian))
            }
            try file.synchronize()
            if lastStep == 2 { return true }
            let old = layout.chunks.filter(replaces)
            for chunk in old {
                try file.seek(toOffset: chunk.offset)
                try file.write(contentsOf: Data(container.paddingID.utf8))
                try file.seek(toOffset: chunk.offset + 8)
                try file.write(contentsOf: Data(count: Int(chunk.size)))
            }
            if !old.isEmpty { try file.synchronize() }
            return true
        } catch let error as SoundFileError {
            throw error
        } catch {
            throw SoundFileError.foundation(error, kind: .write, path: path, doing: "\(purpose) in place failed")
        }
    }

    /// A chunk with `id` and `body`, padded to an even length.
    static func chunk(_ id: String, _ body: Data, bigEndian: Bool) -> Data {
        var chunk = Data(id.utf8.prefix(4))
        chunk.append(bytes(UInt32(body.count), bigEndian: bigEndian))
        chunk.append(body)
        if body.count % 2 == 1 { chunk.append(0) }
        return chunk
    }

    static func bytes(_ value: UInt32, bigEndian: Bool) -> Data {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { Data($0) }
    }

    static func bytes(_ value: UInt16, bigEndian: Bool) -> Data {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { Data($0) }
    }

    static func integer(_ data: Data, at offset: Int, width: Int, bigEndian: Bool) -> UInt32 {
        let start = data.startIndex + offset
        return (0..<width).reduce(UInt32(0)) { value, index in
            let shift = bigEndian ? 8 * (width - 1 - index) : 8 * index
            return value | UInt32(data[start + index]) << shift
        }
    }

    /// The little-endian 64-bit value at `offset` of `data`.
    static func integer64(_ data: Data, at offset: Int) -> UInt64 {
        let start = data.startIndex + offset
        return (0..<8).reduce(UInt64(0)) { value, index in value | UInt64(data[start + index]) << (8 * index) }
    }

    // MARK: Layout

    private struct Layout {
        var chunks: [Chunk]
        var containerEnd: UInt64
        /// An RF64 file: its sizes are in `ds64`.
        var isRF64 = false
    }

    /// Where an RF64 file's 64-bit RIFF size is: the first field of the `ds64` chunk, which
    /// follows `RF64`, its 0xFFFFFFFF and `WAVE`. The data size and the frame count follow it.
    static let rf64SizeOffset: UInt64 = 20

    /// An RF64 file's sizes from its `ds64` chunk (`head`: its first 44 bytes at least).
    static func rf64Sizes(_ head: Data) -> (riffSize: UInt64, dataSize: UInt64, frames: UInt64)? {
        guard head.count >= 44, ascii(head, 0) == "RF64", ascii(head, 8) == "WAVE", ascii(head, 12) == "ds64",
            integer(head, at: 16, width: 4, bigEndian: false) >= 24
        else { return nil }
        return (integer64(head, at: 20), integer64(head, at: 28), integer64(head, at: 36))
    }

    /// The chunks inside the container, or `nil` when they do not fill it exactly, it does not
    /// match the file's length (but for a pending tail starting with `pendingFirstID`), or it
    /// has no audio chunk.
    private static func layout(of file: FileHandle, container: Container, pendingFirstID: String?) throws -> Layout? {
        let fileSize = try file.seekToEnd()
        try file.seek(toOffset: 0)
        guard let head = try file.read(upToCount: 44), head.count >= 12 else { return nil }
        let rf64 = container == .riff ? rf64Sizes(head) : nil
        guard rf64 != nil || ascii(head, 0) == container.containerID, container.accepts(formType: ascii(head, 8))
        else { return nil }
        let containerEnd =
            rf64.map { $0.riffSize + 8 } ?? UInt64(integer(head, at: 4, width: 4, bigEndian: container.bigEndian)) + 8
        if containerEnd != fileSize {
            guard containerEnd < fileSize, let pendingFirstID else { return nil }
            try file.seek(toOffset: containerEnd)
            guard let tail = try file.read(upToCount: 4), tail.count == 4, ascii(tail, 0) == pendingFirstID else { return nil }
        }
        var chunks: [Chunk] = []
        var offset: UInt64 = 12
        var sawAudio = false
        while offset < containerEnd {
            try file.seek(toOffset: offset)
            guard offset + 8 <= containerEnd, let header = try file.read(upToCount: 12), header.count >= 8 else { return nil }
            let id = ascii(header, 0)
            var size = UInt64(integer(header, at: 4, width: 4, bigEndian: container.bigEndian))
            if let rf64, id == "data", size == UInt64(UInt32.max) { size = rf64.dataSize }
            let listType = id == "LIST" && header.count == 12 ? ascii(header, 8) : nil
            let chunk = Chunk(offset: offset, id: id, size: size, listType: listType)
            guard chunk.end <= containerEnd + 1 else { return nil }
            if id == "data" || id == "SSND" { sawAudio = true }
            chunks.append(chunk)
            offset = chunk.end
        }
        guard sawAudio, offset == containerEnd else { return nil }
        return Layout(chunks: chunks, containerEnd: containerEnd, isRF64: rf64 != nil)
    }

    static func ascii(_ data: Data, _ offset: Int) -> String {
        let start = data.startIndex + offset
        return String(decoding: data[start..<start + 4], as: UTF8.self)
    }
}
