import Foundation

/// A marker as a file holds it: a frame from the start and a label (empty when none).
public struct FileMarker: Sendable, Hashable {
    public var frame: Int64
    public var label: String

    public init(frame: Int64, label: String) {
        self.frame = frame
        self.label = label
    }
}

/// Markers inside WAV and AIFF files, written in place (see `IFFChunksInPlace`) and read back.
///
/// - WAV: a `cue ` chunk (one point per marker, its position and sample offset the frame, in
///   the `data` chunk) and a `LIST`/`adtl` chunk with a `labl` per labelled point (UTF-8), the
///   layout Audacity, Sound Forge, Reaper and `sndfile-info` read; libsndfile's `SFC_GET_CUE`
///   reads the points (1.2.0 does not read `labl`, so the labels are read here).
/// - AIFF: a `MARK` chunk (`SFC_GET_CUE` reads points and names); a name is a Pascal string,
///   so a label longer than 255 bytes is cut at a character boundary.
///
/// - FLAC, Ogg Vorbis, Ogg Opus: Vorbis comments in the chapter extension players read
///   (`CHAPTER001=00:01:02.345`, `CHAPTER001NAME=label`; see `VorbisComments`), to the
///   millisecond. libsndfile writes only its fixed tags, so the comment block or header is laid
///   out again here into a copy (`copy(_:from:to:format:)`), the audio bytes unchanged, which
///   the caller renames into place.
///
/// libsndfile 1.2.0 writes cue points only into a file that has no audio yet (`SFC_SET_CUE`
/// after the first frame fails: "file already has audio data"), and writes no `labl`; so for a
/// finished memo the chunks are written here. MP3 (ID3v2 `CHAP` frames: libsndfile writes only
/// ID3v1), CAF (its `mark` chunk) and M4A (chapter tracks) have no writer here: their markers
/// live in the index only (`canHold(_:)` says so).
public enum FileMarkers {
    /// Whether a file of `format` can hold markers.
    public static func canHold(_ format: FileFormat) -> Bool {
        isWrittenInPlace(format) || isWrittenAsCopy(format)
    }

    /// Whether `write(_:to:format:)` changes the file in place (WAV, AIFF).
    public static func isWrittenInPlace(_ format: FileFormat) -> Bool {
        format == .wav || format == .aiff
    }

    /// Whether the markers go into a copy (`copy(_:from:to:format:)`: FLAC, Ogg Vorbis, Ogg Opus).
    public static func isWrittenAsCopy(_ format: FileFormat) -> Bool {
        format == .flac || format == .ogg || format == .opus
    }

    /// Writes a copy of `source` at `destination` (which must not exist) holding `markers`
    /// (the earlier ones replaced), every other tag and the audio bytes unchanged.
    ///
    /// - Throws: `SoundFileError`: `.unsupported` for another format or a file laid out
    ///   otherwise (several Ogg streams, damaged headers), else the read or write failure.
    public static func copy(_ markers: [FileMarker], from source: String, to destination: String, format: FileFormat)
        throws(SoundFileError)
    {
        let sorted = markers.sorted { $0.frame < $1.frame }.filter { $0.frame >= 0 }
        switch format {
        case .flac:
            try FLACCommentRewrite.copy(source, to: destination, purpose: "write the markers of") { comments, rate in
                comments.replacingMarkers(sorted, sampleRate: rate)
            }
        case .ogg, .opus:
            let rate = OggCommentRewrite.comments(of: source)?.sampleRate ?? 48000
            try OggCommentRewrite.copy(source, to: destination, purpose: "write the markers of") {
                $0.replacingMarkers(sorted, sampleRate: rate)
            }
        default:
            throw SoundFileError(
                kind: .unsupported, path: source, detail: "\(format.displayName) files have no place for markers here")
        }
    }

    /// Writes `markers` into the file at `path` in place (the earlier markers replaced).
    ///
    /// - Returns: `false`, changing nothing, when the format holds none or the file is not laid
    ///   out for an in-place change (bytes past its end, a RIFF they would take past 4 GiB;
    ///   an RF64 WAV takes them).
    /// - Throws: `SoundFileError` for a failed write; the file stays valid with the old or new markers.
    @discardableResult
    public static func write(_ markers: [FileMarker], to path: String, format: FileFormat) throws(SoundFileError) -> Bool {
        try write(markers, to: path, format: format, lastStep: 3)
    }

    /// `write(_:to:format:)` stopping after step `lastStep` of `IFFChunksInPlace` (a test seam).
    static func write(_ markers: [FileMarker], to path: String, format: FileFormat, lastStep: Int) throws(SoundFileError) -> Bool {
        let sorted = markers.sorted { $0.frame < $1.frame }.filter { $0.frame >= 0 && $0.frame <= Int64(UInt32.max) }
        switch format {
        case .wav:
            return try IFFChunksInPlace.replace(
                in: path, container: .riff, with: wavChunks(sorted), pendingFirstID: "cue ",
                replacing: { $0.id == "cue " || ($0.id == "LIST" && $0.listType == "adtl") }, purpose: "writing its markers",
                lastStep: lastStep)
        case .aiff:
            return try IFFChunksInPlace.replace(
                in: path, container: .aiff, with: aiffChunk(sorted), pendingFirstID: "MARK",
                replacing: { $0.id == "MARK" }, purpose: "writing its markers", lastStep: lastStep)
        default:
            return false
        }
    }

    /// The markers the file at `path` holds, earliest first; `nil` when it cannot hold any or
    /// cannot be read as a plain WAV, AIFF, FLAC or single-stream Ogg, `[]` when it holds none.
    public static func read(from path: String, format: FileFormat) -> [FileMarker]? {
        switch format {
        case .wav:
            guard let cues = IFFChunksInPlace.bodies(of: path, in: .riff, pendingFirstID: "cue ", matching: { $0.id == "cue " }),
                let lists = IFFChunksInPlace.bodies(of: path, in: .riff, pendingFirstID: "cue ", matching: { $0.id == "LIST" && $0.listType == "adtl" })
            else { return nil }
            guard let cue = cues.last else { return [] }
            return wavMarkers(cue: cue, adtl: lists.last)
        case .aiff:
            guard let marks = IFFChunksInPlace.bodies(of: path, in: .aiff, pendingFirstID: "MARK", matching: { $0.id == "MARK" }) else { return nil }
            guard let mark = marks.last else { return [] }
            return aiffMarkers(mark)
        case .flac:
            return FLACCommentRewrite.comments(of: path).map { $0.comments.markers(sampleRate: $0.sampleRate) }
        case .ogg, .opus:
            return OggCommentRewrite.comments(of: path).map { $0.comments.markers(sampleRate: $0.sampleRate) }
        default:
            return nil
        }
    }

    // MARK: WAV

    static func wavChunks(_ markers: [FileMarker]) -> Data {
        var cue = IFFChunksInPlace.bytes(UInt32(markers.count), bigEndian: false)
        var adtl = Data("adtl".utf8)
        for (index, marker) in markers.enumerated() {
            let id = UInt32(index + 1)
            let frame = UInt32(marker.frame)
            cue.append(IFFChunksInPlace.bytes(id, bigEndian: false))
            cue.append(IFFChunksInPlace.bytes(frame, bigEndian: false))
            cue.append(Data("data".utf8))
            cue.append(Data(count: 8))
            cue.append(IFFChunksInPlace.bytes(frame, bigEndian: false))
            guard !marker.label.isEmpty else { continue }
            var body = IFFChunksInPlace.bytes(id, bigEndian: false)
            body.append(Data(marker.label.utf8))
            body.append(0)
            adtl.append(IFFChunksInPlace.chunk("labl", body, bigEndian: false))
        }
        return IFFChunksInPlace.chunk("cue ", cue, bigEndian: false)
            + IFFChunksInPlace.chunk("LIST", adtl, bigEndian: false)
    }

    static func wavMarkers(cue: Data, adtl: Data?) -> [FileMarker] {
        guard cue.count >= 4 else { return [] }
        let count = Int(IFFChunksInPlace.integer(cue, at: 0, width: 4, bigEndian: false))
        var labels: [UInt32: String] = [:]
        if let adtl, adtl.count >= 4 {
            var position = 4
            while position + 8 <= adtl.count {
                let id = IFFChunksInPlace.ascii(adtl, position)
                let size = Int(IFFChunksInPlace.integer(adtl, at: position + 4, width: 4, bigEndian: false))
                guard position + 8 + size <= adtl.count else { break }
                if id == "labl", size >= 4 {
                    let start = adtl.startIndex + position + 8
                    let cueID = IFFChunksInPlace.integer(adtl, at: position + 8, width: 4, bigEndian: false)
                    var text = Data(adtl[start + 4..<start + size])
                    while text.last == 0 { text.removeLast() }
                    labels[cueID] = String(decoding: text, as: UTF8.self)
                }
                position += 8 + size + size % 2
            }
        }
        var markers: [FileMarker] = []
        for index in 0..<count {
            let base = 4 + 24 * index
            guard base + 24 <= cue.count else { break }
            let id = IFFChunksInPlace.integer(cue, at: base, width: 4, bigEndian: false)
            let frame = IFFChunksInPlace.integer(cue, at: base + 20, width: 4, bigEndian: false)
            markers.append(FileMarker(frame: Int64(frame), label: labels[id] ?? ""))
        }
        return markers.sorted { $0.frame < $1.frame }
    }

    // MARK: AIFF

    static func aiffChunk(_ markers: [FileMarker]) -> Data {
        let kept = markers.prefix(Int(Int16.max))
        var body = IFFChunksInPlace.bytes(UInt16(kept.count), bigEndian: true)
        for (index, marker) in kept.enumerated() {
            body.append(IFFChunksInPlace.bytes(UInt16(index + 1), bigEndian: true))
            body.append(IFFChunksInPlace.bytes(UInt32(marker.frame), bigEndian: true))
            var name = Data()
            for character in marker.label {
                let bytes = Data(String(character).utf8)
                if name.count + bytes.count > 255 { break }
                name.append(bytes)
            }
            body.append(UInt8(name.count))
            body.append(name)
            if (name.count + 1) % 2 == 1 { body.append(0) }
        }
        return IFFChunksInPlace.chunk("MARK", body, bigEndian: true)
    }

    static func aiffMarkers(_ mark: Data) -> [FileMarker] {
        guard mark.count >= 2 else { return [] }
        let count = Int(IFFChunksInPlace.integer(mark, at: 0, width: 2, bigEndian: true))
        var markers: [FileMarker] = []
        var position = 2
        for _ in 0..<count {
            guard position + 7 <= mark.count else { break }
            let frame = IFFChunksInPlace.integer(mark, at: position + 2, width: 4, bigEndian: true)
            let length = Int(mark[mark.startIndex + position + 6])
            let start = mark.startIndex + position + 7
            guard position + 7 + length <= mark.count else { break }
            markers.append(FileMarker(frame: Int64(frame), label: String(decoding: mark[start..<start + length], as: UTF8.self)))
            position += 7 + length + (length + 1) % 2
        }
        return markers.sorted { $0.frame < $1.frame }
    }
}
