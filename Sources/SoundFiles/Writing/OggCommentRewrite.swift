import Foundation

/// Changes the comment header of an Ogg Vorbis or Ogg Opus file (its TITLE, or its chapter
/// entries for markers: see `VorbisComments`), copying every audio page as it is (no decoding,
/// no quality lost).
///
/// An Ogg stream starts with its header packets (Vorbis: identification, comment, setup; Opus:
/// OpusHead, OpusTags), the first alone on the first page and the rest ending on a page boundary
/// before the audio. Those pages are laid out again around the new comment packet; the audio
/// pages after them are copied byte for byte, only renumbered (with their CRC recomputed) when
/// the header now takes a different number of pages. Only single-stream files are handled.
enum OggCommentRewrite {
    /// One page: where it is, its header fields and its segment table.
    private struct Page {
        var offset: Int
        var headerLength: Int
        var bodyLength: Int
        var flags: UInt8
        var serial: UInt32
        var segments: [UInt8]

        var length: Int { headerLength + bodyLength }
    }

    private enum Codec {
        case vorbis, opus

        var headerPacketCount: Int { self == .vorbis ? 3 : 2 }
        /// The bytes a comment packet starts with.
        var commentMagic: [UInt8] { self == .vorbis ? [3] + Array("vorbis".utf8) : Array("OpusTags".utf8) }
    }

    static func copy(_ source: String, to destination: String, title: String, comment: String? = nil) throws(SoundFileError) {
        try copy(source, to: destination, purpose: "change the title of") { comments in
            let retitled = comments.replacingTitle(title)
            return comment.map { retitled.replacing("COMMENT", with: $0) } ?? retitled
        }
    }

    /// Copies `source` to `destination` (which must not exist) with its comments changed by `edit`.
    static func copy(
        _ source: String, to destination: String, purpose: String, edit: (VorbisComments) -> VorbisComments
    ) throws(SoundFileError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: source), options: .alwaysMapped)
        } catch {
            throw SoundFileError.foundation(error, kind: .cannotOpen, path: source, doing: "reading it failed")
        }
        let output = try rewritten(Array(data), path: source, purpose: purpose, edit: edit)
        do {
            try Data(output).write(to: URL(fileURLWithPath: destination), options: .withoutOverwriting)
        } catch {
            throw SoundFileError.foundation(error, kind: .write, path: destination, doing: "writing the copy failed")
        }
    }

    /// The file's bytes with the new title.
    static func rewritten(_ bytes: [UInt8], title: String, path: String) throws(SoundFileError) -> [UInt8] {
        try rewritten(bytes, path: path, purpose: "change the title of") { $0.replacingTitle(title) }
    }

    /// The comments of the Ogg file at `path`, and its codec's sample rate (Opus: 48 000, the
    /// rate its granule positions count); `nil` when it cannot be read as one.
    static func comments(of path: String) -> (comments: VorbisComments, sampleRate: Int)? {
        // The header pages come first: a few MiB hold them (cover art included), not the audio.
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 4 << 20),
            let header = try? headerPackets(Array(data), refuse: { _ in SoundFileError(kind: .unsupported, path: path, detail: "") }),
            let comments = comment(in: header.packets[1], magic: header.codec.commentMagic)
        else { return nil }
        let identification = header.packets[0]
        let rate =
            header.codec == .opus ? 48000
            : identification.count >= 16 ? Int(readUInt32(identification, at: 12)) : 0
        return (comments.list, rate)
    }

    /// The file's bytes with its comments changed by `edit`.
    static func rewritten(
        _ bytes: [UInt8], path: String, purpose: String, edit: (VorbisComments) -> VorbisComments
    ) throws(SoundFileError) -> [UInt8] {
        func refuse(_ why: String) -> SoundFileError {
            SoundFileError(kind: .unsupported, path: path, detail: "cannot \(purpose) this Ogg file: \(why)")
        }
        let (codec, pages, packets, headerEnd) = try headerPackets(bytes, refuse: refuse)
        var offset = headerEnd
        guard let parsed = comment(in: packets[1], magic: codec.commentMagic) else {
            throw refuse("its comment header is damaged")
        }
        let comment = codec.commentMagic + edit(parsed.list).bytes + parsed.trailing
        // Lay out the header again: the first page as it is, then the other header packets.
        var output = Array(bytes[0..<pages[0].length])
        let headerPages = layOut(
            packets: [comment] + packets[2...], serial: pages[0].serial, firstSequence: 1)
        for page in headerPages { output += page }
        let shift = UInt32(headerPages.count + 1) &- UInt32(pages.count)
        guard shift != 0 else {
            output += bytes[offset...]
            return output
        }
        // Audio pages: same bytes, new sequence numbers and CRCs.
        while offset < bytes.count {
            guard let page = page(in: bytes, at: offset), page.serial == pages[0].serial else {
                throw refuse("a page after the header is damaged or from another stream")
            }
            var copy = Array(bytes[offset..<(offset + page.length)])
            let sequence = readUInt32(copy, at: 18) &+ shift
            writeUInt32(sequence, into: &copy, at: 18)
            writeUInt32(0, into: &copy, at: 22)
            writeUInt32(crc(copy), into: &copy, at: 22)
            output += copy
            offset += page.length
        }
        return output
    }

    /// The header's pages and packets (identification, comment, and Vorbis's setup), and the
    /// offset of the first audio page.
    private static func headerPackets(
        _ bytes: [UInt8], refuse: (String) -> SoundFileError
    ) throws(SoundFileError) -> (codec: Codec, pages: [Page], packets: [[UInt8]], end: Int) {
        // Read pages until the header packets are complete.
        var pages: [Page] = []
        var packets: [[UInt8]] = []
        var current: [UInt8] = []
        var offset = 0
        var codec: Codec?
        while codec.map({ packets.count < $0.headerPacketCount }) ?? true {
            guard let page = page(in: bytes, at: offset) else { throw refuse("its header pages are damaged") }
            if let first = pages.first, first.serial != page.serial { throw refuse("it holds more than one stream") }
            pages.append(page)
            var position = page.offset + page.headerLength
            for (index, segment) in page.segments.enumerated() {
                current += bytes[position..<(position + Int(segment))]
                position += Int(segment)
                guard segment < 255 else { continue }
                packets.append(current)
                current = []
                if codec == nil {
                    codec = packets[0].starts(with: [1] + Array("vorbis".utf8)) ? .vorbis
                        : packets[0].starts(with: Array("OpusHead".utf8)) ? .opus : nil
                    guard codec != nil else { throw refuse("it is neither Vorbis nor Opus") }
                }
                if let codec, packets.count == codec.headerPacketCount, index != page.segments.count - 1 {
                    throw refuse("its audio starts on a header page")
                }
            }
            offset += page.length
        }
        guard let codec, pages.count >= 2, pages[0].segments.count == 1 else { throw refuse("its header is not laid out as usual") }
        return (codec, pages, packets, offset)
    }

    /// The page at `offset`, or `nil` when there is no whole page there.
    private static func page(in bytes: [UInt8], at offset: Int) -> Page? {
        guard offset + 27 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual("OggS".utf8), bytes[offset + 4] == 0
        else { return nil }
        let count = Int(bytes[offset + 26])
        guard offset + 27 + count <= bytes.count else { return nil }
        let segments = Array(bytes[(offset + 27)..<(offset + 27 + count)])
        let bodyLength = segments.reduce(0) { $0 + Int($1) }
        guard offset + 27 + count + bodyLength <= bytes.count else { return nil }
        return Page(
            offset: offset, headerLength: 27 + count, bodyLength: bodyLength, flags: bytes[offset + 5],
            serial: readUInt32(bytes, at: offset + 14), segments: segments)
    }

    /// The comment packet's list and what follows it (Vorbis's framing bit); `nil` if malformed.
    private static func comment(in packet: [UInt8], magic: [UInt8]) -> (list: VorbisComments, trailing: ArraySlice<UInt8>)? {
        guard packet.starts(with: magic), let (list, length) = VorbisComments.parse(packet[magic.count...]) else { return nil }
        return (list, packet[(magic.count + length)...])
    }

    /// Pages holding `packets` (granule position 0 where a packet ends, −1 elsewhere), the last
    /// packet ending its page.
    private static func layOut(packets: [[UInt8]], serial: UInt32, firstSequence: UInt32) -> [[UInt8]] {
        var lacing: [(value: UInt8, endsPacket: Bool)] = []
        var body: [UInt8] = []
        for packet in packets {
            var remaining = packet.count
            while remaining >= 255 {
                lacing.append((255, false))
                remaining -= 255
            }
            lacing.append((UInt8(remaining), true))
            body += packet
        }
        var pages: [[UInt8]] = []
        var segmentStart = 0
        var bodyStart = 0
        var continued = false
        while segmentStart < lacing.count {
            let segments = lacing[segmentStart..<min(segmentStart + 255, lacing.count)]
            let bodyLength = segments.reduce(0) { $0 + Int($1.value) }
            let endsPacket = segments.contains { $0.endsPacket }
            var page = Array("OggS".utf8) + [0, continued ? 1 : 0]
            page += [UInt8](repeating: endsPacket ? 0 : 0xFF, count: 8)
            page += [UInt8](repeating: 0, count: 12)
            writeUInt32(serial, into: &page, at: 14)
            writeUInt32(firstSequence + UInt32(pages.count), into: &page, at: 18)
            page.append(UInt8(segments.count))
            page += segments.map(\.value)
            page += body[bodyStart..<(bodyStart + bodyLength)]
            writeUInt32(crc(page), into: &page, at: 22)
            pages.append(page)
            continued = !(segments.last?.endsPacket ?? true)
            segmentStart += segments.count
            bodyStart += bodyLength
        }
        return pages
    }

    // MARK: Bytes

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private static func writeUInt32(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
        for index in 0..<4 {
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
        }
    }

    /// Ogg's page checksum: CRC-32, polynomial 0x04C11DB7, not reflected, initial value 0.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc = (crc << 8) ^ crcTable[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)]
        }
        return crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 {
            value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1
        }
        return value
    }
}
