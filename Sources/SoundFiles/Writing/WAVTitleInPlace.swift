import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Changes a WAV file's title without copying its audio: a new `LIST`/`INFO` chunk is appended
/// after the last chunk, and the old one is turned into `JUNK`.
///
/// Renaming a 1-hour WAV by copying it writes 500 MB and needs that much free space; this writes
/// a few hundred bytes. Each step leaves a valid file, so a crash (kill -9, power) at any point
/// leaves the audio whole and the title either the old or the new one:
/// 1. the new chunk is written past the end of the RIFF chunk (readers go by the RIFF size, or
///    read both lists; libsndfile keeps the last title it reads), flushed; a list left there by
///    a rename stopped after this step is written over;
/// 2. the RIFF size is made to include it (one 4-byte write), flushed;
/// 3. each older `LIST`/`INFO` chunk's id becomes `JUNK` (one 4-byte write each), flushed.
/// The data chunk is never touched. The file grows by the list's size (≈ 150 bytes plus the
/// title) on each rename: the old list stays as `JUNK`.
///
/// Only plain RIFF/WAVE files whose RIFF size matches the file (as libsndfile writes them, or
/// but for such a pending list) are
/// changed; anything else (RF64, trailing bytes, a size past 4 GiB) is left to the copying
/// rewrite (`TitleRewrite`).
enum WAVTitleInPlace {
    /// One chunk of the file: where its header starts, its id and its size.
    struct Chunk: Equatable {
        var offset: UInt64
        var id: String
        var size: UInt64
        /// For a `LIST` chunk, its list type (`INFO`).
        var listType: String?
    }

    /// The chunks of `path` when it is a WAV this type can change in place, else `nil`.
    static func chunks(of path: String) -> [Chunk]? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        return try? chunks(in: file)
    }

    /// Retitles `path` in place; returns `false`, changing nothing, when its layout is not one
    /// this type changes (see above).
    ///
    /// - Parameter lastStep: test seam: stop after step 1 or 2, as a crash there would.
    /// - Throws: `SoundFileError` for a failed read, write or flush; the file is valid either way.
    static func retitle(_ path: String, title: String, lastStep: Int = 3) throws(SoundFileError) -> Bool {
        guard let file = FileHandle(forUpdatingAtPath: path) else {
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "cannot open it to change its title", osError: errno)
        }
        defer { try? file.close() }
        do {
            guard let chunks = try chunks(in: file) else { return false }
            let lists = chunks.filter { $0.id == "LIST" && $0.listType == "INFO" }
            var entries: [(id: String, value: Data)] = []
            if let current = lists.last {
                entries = try infoEntries(of: current, in: file)
            }
            entries.removeAll { $0.id == "INAM" }
            entries.insert((id: "INAM", value: Data(title.utf8)), at: 0)
            let list = listChunk(entries)
            let end = chunks.last.map { $0.offset + 8 + $0.size + $0.size % 2 } ?? 12
            guard end + UInt64(list.count) <= UInt64(UInt32.max) else { return false }
            // 1. The new list, after everything the RIFF size covers.
            try file.seek(toOffset: end)
            try file.write(contentsOf: list)
            // A longer list left by a rename stopped after this step: cut it off.
            try file.truncate(atOffset: end + UInt64(list.count))
            try file.synchronize()
            if lastStep == 1 { return true }
            // 2. The RIFF chunk takes it in.
            try write(UInt32(end + UInt64(list.count) - 8), at: 4, in: file)
            try file.synchronize()
            if lastStep == 2 { return true }
            // 3. The old lists become padding (their old titles blanked: a rename hides them).
            for old in lists {
                try file.seek(toOffset: old.offset)
                try file.write(contentsOf: Data("JUNK".utf8))
                try file.seek(toOffset: old.offset + 8)
                try file.write(contentsOf: Data(count: Int(old.size)))
            }
            if !lists.isEmpty { try file.synchronize() }
            return true
        } catch let error as SoundFileError {
            throw error
        } catch {
            let code = (error as NSError).code
            throw SoundFileError(
                kind: .write, path: path, detail: "changing its title in place failed (\(error.localizedDescription))",
                osError: (error as NSError).domain == NSPOSIXErrorDomain ? Int32(clamping: code) : nil)
        }
    }

    /// The chunks after `RIFF…WAVE`, or `nil` when the file is not a plain WAV whose RIFF size
    /// matches its length and whose chunks fill it exactly.
    private static func chunks(in file: FileHandle) throws -> [Chunk]? {
        let fileSize = try file.seekToEnd()
        try file.seek(toOffset: 0)
        guard let head = try file.read(upToCount: 12), head.count == 12, ascii(head, 0) == "RIFF",
            ascii(head, 8) == "WAVE"
        else { return nil }
        let riffEnd = UInt64(littleEndian32(head, 4)) + 8
        guard riffEnd == fileSize || (riffEnd < fileSize && isPendingList(in: file, at: riffEnd, fileSize: fileSize)) else {
            return nil
        }
        var chunks: [Chunk] = []
        var offset: UInt64 = 12
        var sawData = false
        while offset < riffEnd {
            try file.seek(toOffset: offset)
            guard offset + 8 <= riffEnd, let header = try file.read(upToCount: 12), header.count >= 8 else { return nil }
            let id = ascii(header, 0)
            let size = UInt64(littleEndian32(header, 4))
            let next = offset + 8 + size + size % 2
            guard next <= riffEnd + 1 else { return nil }
            if id == "data" {
                guard !sawData else { return nil }
                sawData = true
            }
            let listType = id == "LIST" && header.count == 12 ? ascii(header, 8) : nil
            chunks.append(Chunk(offset: offset, id: id, size: size, listType: listType))
            offset = next
        }
        // An odd last chunk without its pad byte: appending after it would misalign the new one.
        guard sawData, offset == riffEnd else { return nil }
        return chunks
    }

    /// Whether the bytes from `offset` (the RIFF chunk's end) to the end of the file are one
    /// `LIST`/`INFO` chunk: a rename stopped after step 1. The next one writes over it.
    private static func isPendingList(in file: FileHandle, at offset: UInt64, fileSize: UInt64) -> Bool {
        guard (try? file.seek(toOffset: offset)) != nil, let header = try? file.read(upToCount: 12), header.count == 12,
            ascii(header, 0) == "LIST", ascii(header, 8) == "INFO"
        else { return false }
        let size = UInt64(littleEndian32(header, 4))
        return offset + 8 + size + size % 2 == fileSize
    }

    /// The `INFO` entries of a list chunk, in order.
    private static func infoEntries(of list: Chunk, in file: FileHandle) throws -> [(id: String, value: Data)] {
        try file.seek(toOffset: list.offset + 12)
        guard list.size >= 4, let body = try file.read(upToCount: Int(list.size - 4)) else { return [] }
        var entries: [(id: String, value: Data)] = []
        var position = 0
        while position + 8 <= body.count {
            let id = ascii(body, position)
            let size = Int(littleEndian32(body, position + 4))
            let start = body.startIndex + position + 8
            guard position + 8 + size <= body.count else { break }
            var value = Data(body[start..<start + size])
            while value.last == 0 { value.removeLast() }
            entries.append((id: id, value: value))
            position += 8 + size + size % 2
        }
        return entries
    }

    /// `LIST` `INFO` with each entry NUL-terminated and padded to an even length.
    private static func listChunk(_ entries: [(id: String, value: Data)]) -> Data {
        var body = Data("INFO".utf8)
        for entry in entries {
            var value = entry.value
            value.append(0)
            body.append(Data(entry.id.utf8.prefix(4)))
            body.append(littleEndianBytes(UInt32(value.count)))
            body.append(value)
            if value.count % 2 == 1 { body.append(0) }
        }
        var chunk = Data("LIST".utf8)
        chunk.append(littleEndianBytes(UInt32(body.count)))
        chunk.append(body)
        return chunk
    }

    private static func write(_ value: UInt32, at offset: UInt64, in file: FileHandle) throws {
        try file.seek(toOffset: offset)
        try file.write(contentsOf: littleEndianBytes(value))
    }

    private static func littleEndianBytes(_ value: UInt32) -> Data {
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
