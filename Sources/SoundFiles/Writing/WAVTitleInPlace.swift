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
/// Only RIFF/WAVE and RF64 files whose size (RF64: in `ds64`) matches the file (as libsndfile
/// writes them, or but for such a pending list) are changed; anything else (trailing bytes, a
/// RIFF the list would take past 4 GiB) is left to the copying rewrite (`TitleRewrite`). The
/// steps are `IFFChunksInPlace`'s, shared with the markers (`FileMarkers`).
enum WAVTitleInPlace {
    /// One chunk of the file: where its header starts, its id and its size.
    typealias Chunk = IFFChunksInPlace.Chunk

    /// The chunks of `path` when it is a WAV this type can change in place, else `nil`.
    static func chunks(of path: String) -> [Chunk]? {
        IFFChunksInPlace.chunks(of: path, in: .riff, pendingFirstID: "LIST")
    }

    /// Retitles `path` in place; returns `false`, changing nothing, when its layout is not one
    /// this type changes (see above).
    ///
    /// - Parameter lastStep: test seam: stop after step 1 or 2, as a crash there would.
    /// - Throws: `SoundFileError` for a failed read, write or flush; the file is valid either way.
    /// - Parameter comment: when given, the new `ICMT` entry (else the old one is kept).
    static func retitle(_ path: String, title: String, comment: String? = nil, lastStep: Int = 3) throws(SoundFileError) -> Bool {
        let isInfo = { (chunk: Chunk) in chunk.id == "LIST" && chunk.listType == "INFO" }
        guard let lists = IFFChunksInPlace.bodies(of: path, in: .riff, pendingFirstID: "LIST", matching: isInfo) else {
            // Not laid out for it, or unreadable: say which by trying to open it for writing.
            guard FileHandle(forUpdatingAtPath: path) != nil else {
                throw SoundFileError(kind: .cannotOpen, path: path, detail: "cannot open it to change its title", osError: errno)
            }
            return false
        }
        var entries = lists.last.map(infoEntries) ?? []
        entries.removeAll { $0.id == "INAM" }
        entries.insert((id: "INAM", value: Data(title.utf8)), at: 0)
        if let comment {
            entries.removeAll { $0.id == "ICMT" }
            entries.append((id: "ICMT", value: Data(comment.utf8)))
        }
        return try IFFChunksInPlace.replace(
            in: path, container: .riff, with: listChunk(entries), pendingFirstID: "LIST", replacing: isInfo,
            purpose: "changing its title", lastStep: lastStep)
    }

    /// The entries of a `LIST` chunk's body (`INFO` and its entries), in order.
    private static func infoEntries(_ body: Data) -> [(id: String, value: Data)] {
        var entries: [(id: String, value: Data)] = []
        var position = 4
        while position + 8 <= body.count {
            let id = IFFChunksInPlace.ascii(body, position)
            let size = Int(IFFChunksInPlace.integer(body, at: position + 4, width: 4, bigEndian: false))
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
            body.append(IFFChunksInPlace.chunk(entry.id, value, bigEndian: false))
        }
        return IFFChunksInPlace.chunk("LIST", body, bigEndian: false)
    }
}
