import Foundation

/// Changes the VORBIS_COMMENT metadata block of a FLAC file (its chapter entries for markers:
/// see `VorbisComments`), copying the audio frames byte for byte.
///
/// A FLAC file is `fLaC`, metadata blocks (STREAMINFO first; each a 4-byte header: last-block
/// flag, type, 24-bit length), then the frames. libsndfile 1.2.0 writes STREAMINFO and a
/// VORBIS_COMMENT with its fixed tags, no padding; its read/write mode refuses FLAC and it has
/// no call for other comments, so the blocks are laid out again here into a new file (the
/// caller renames it into place): every other block kept in order, the comment block replaced
/// or added after STREAMINFO.
enum FLACCommentRewrite {
    private static let streamInfo: UInt8 = 0, vorbisComment: UInt8 = 4

    private struct Block {
        var type: UInt8
        var body: ArraySlice<UInt8>
    }

    /// The metadata blocks and where the frames start; `nil` when `bytes` is not a FLAC start.
    private static func blocks(_ bytes: [UInt8]) -> (blocks: [Block], framesStart: Int)? {
        guard bytes.count >= 8, bytes[0..<4].elementsEqual("fLaC".utf8) else { return nil }
        var blocks: [Block] = []
        var position = 4
        while true {
            guard position + 4 <= bytes.count else { return nil }
            let header = bytes[position]
            let length = Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard position + 4 + length <= bytes.count else { return nil }
            blocks.append(Block(type: header & 0x7F, body: bytes[(position + 4)..<(position + 4 + length)]))
            position += 4 + length
            if header & 0x80 != 0 { break }
        }
        guard blocks.first?.type == streamInfo, blocks[0].body.count >= 18 else { return nil }
        return (blocks, position)
    }

    /// The sample rate STREAMINFO gives (20 bits after the block and frame sizes).
    private static func sampleRate(_ info: Block) -> Int {
        let base = info.body.startIndex + 10
        return Int(info.body[base]) << 12 | Int(info.body[base + 1]) << 4 | Int(info.body[base + 2]) >> 4
    }

    /// The comments of the FLAC file at `path` (empty when it has no comment block) and its
    /// sample rate; `nil` when it cannot be read as FLAC.
    static func comments(of path: String) -> (comments: VorbisComments, sampleRate: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // The metadata comes first: a few MiB hold it (a picture block included), not the frames.
        guard let data = try? handle.read(upToCount: 4 << 20), let (blocks, _) = blocks(Array(data)) else { return nil }
        let rate = sampleRate(blocks[0])
        guard let block = blocks.first(where: { $0.type == vorbisComment }) else {
            return (VorbisComments(vendor: [], entries: []), rate)
        }
        guard let (comments, _) = VorbisComments.parse(block.body) else { return nil }
        return (comments, rate)
    }

    /// Copies `source` to `destination` (which must not exist) with its comments changed by
    /// `edit` (given the file's sample rate).
    static func copy(
        _ source: String, to destination: String, purpose: String, edit: (VorbisComments, Int) -> VorbisComments
    ) throws(SoundFileError) {
        func refuse(_ why: String) -> SoundFileError {
            SoundFileError(kind: .unsupported, path: source, detail: "cannot \(purpose) this FLAC file: \(why)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: source), options: .alwaysMapped)
        } catch {
            throw SoundFileError.foundation(error, kind: .cannotOpen, path: source, doing: "reading it failed")
        }
        let bytes = Array(data)
        guard let (blocks, framesStart) = blocks(bytes) else { throw refuse("its metadata blocks are damaged") }
        var comments = VorbisComments(vendor: Array("VoiceMemo".utf8), entries: [])
        if let block = blocks.first(where: { $0.type == vorbisComment }) {
            guard let (parsed, _) = VorbisComments.parse(block.body) else { throw refuse("its comment block is damaged") }
            comments = parsed
        }
        let body = edit(comments, sampleRate(blocks[0])).bytes
        guard body.count < 1 << 24 else { throw refuse("its comments would exceed 16 MiB") }
        var laidOut = blocks.filter { $0.type != vorbisComment }
        laidOut.insert(Block(type: vorbisComment, body: body[...]), at: 1)
        var output = Array("fLaC".utf8)
        output.reserveCapacity(bytes.count + body.count)
        for (index, block) in laidOut.enumerated() {
            let last: UInt8 = index == laidOut.count - 1 ? 0x80 : 0
            let length = block.body.count
            output += [last | block.type, UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            output += block.body
        }
        output += bytes[framesStart...]
        do {
            try Data(output).write(to: URL(fileURLWithPath: destination), options: .withoutOverwriting)
        } catch {
            throw SoundFileError.foundation(error, kind: .write, path: destination, doing: "writing the copy failed")
        }
    }
}
