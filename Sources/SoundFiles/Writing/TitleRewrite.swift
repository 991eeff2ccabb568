import Foundation

/// Copies a sound file with a new title in its tags, without changing its audio.
///
/// libsndfile 1.2.0 cannot change tags in place for most of our formats (measured: `SFM_RDWR` is
/// refused for FLAC, Ogg Vorbis, Ogg Opus, MP3 and ALAC-in-CAF — "does not support read/write
/// mode" — and for a WAV that already has tags — "string data in header"; it works for AIFF and
/// PCM CAF, but rewrites the header in place, not atomically, and CAF then drops the other tags).
/// So the title is changed by writing a complete new copy, which the caller renames over the
/// original (see MemoLibrary's `AtomicReplacement`). How the copy is made depends on the format,
/// and never costs audio quality:
/// - lossless encodings (PCM, float, µ-law, A-law in WAV, AIFF or CAF; FLAC; ALAC): decoded and
///   encoded again by libsndfile, sample for sample identical;
/// - MP3: the bytes copied as they are, with the title field of the ID3v1 tag at the end (the
///   only tag libsndfile writes and reads for MP3: 30 bytes, so a longer title is cut at a
///   character boundary) replaced;
/// - Ogg Vorbis and Ogg Opus: the pages copied as they are, with the comment header's TITLE
///   replaced (see `OggCommentRewrite`);
/// - M4A: the AAC packets remuxed as they are by FFmpeg, with the new `©nam` (`MP4TitleRewrite`);
/// - IMA ADPCM: refused (`.unsupported`): encoding it again would lose quality.
public enum TitleRewrite {
    /// How a file's title is changed.
    public enum Method: String, Sendable, Hashable {
        /// Decoded and encoded again, losslessly.
        case decodeAndEncode
        /// The file's bytes, with the ID3v1 title replaced.
        case id3v1
        /// The Ogg pages, with the comment header replaced.
        case oggComment
        /// The MP4's AAC packets, remuxed with the new title.
        case mp4Remux
    }

    /// The method for a file in `format` coded as `encoding`; `nil` where none keeps the audio.
    public static func method(format: FileFormat, encoding: Encoding) -> Method? {
        switch (format, encoding) {
        case (.mp3, _): .id3v1
        case (.ogg, _), (.opus, _): .oggComment
        case (.m4a, _): .mp4Remux
        case (_, .imaAdpcm), (_, .vorbis), (_, .opus), (_, .mp3), (_, .aac): nil
        default: .decodeAndEncode
        }
    }

    /// Writes a copy of `source` at `destination` (which must not exist) with `title` as its
    /// title and, when given and the method writes one (`writesComment`), `comment` as its
    /// comment; every other tag is kept.
    ///
    /// - Returns: how the copy was made.
    /// - Throws: `SoundFileError`: `.unsupported` for a file whose title cannot be changed
    ///   without re-encoding it lossily, else the read or write failure. A partial `destination`
    ///   is left for the caller to remove.
    @discardableResult
    public static func copy(
        _ source: String, to destination: String, title: String, comment: String? = nil
    ) throws(SoundFileError) -> Method {
        let reader = try SoundFileReader(path: source)
        defer { reader.close() }
        guard let format = reader.info.format, let encoding = reader.info.encoding,
            let method = method(format: format, encoding: encoding)
        else {
            throw SoundFileError(
                kind: .unsupported, path: source,
                detail: "its title cannot be changed without encoding its audio again, which would lose quality")
        }
        switch method {
        case .decodeAndEncode:
            try decodeAndEncode(reader, format: format, encoding: encoding, to: destination, title: title, comment: comment)
        case .id3v1:
            try ID3v1Title.copy(source, to: destination, title: title)
        case .oggComment:
            try OggCommentRewrite.copy(source, to: destination, title: title, comment: comment)
        case .mp4Remux:
            try MP4TitleRewrite.copy(source, to: destination, title: title, comment: comment)
        }
        return method
    }

    /// Whether `path` is a WAV whose title `retitleInPlace` can change without copying it.
    public static func canRetitleInPlace(_ path: String) -> Bool {
        WAVTitleInPlace.chunks(of: path) != nil
    }

    /// Changes the title of the WAV at `path` in place, crash-safely, without touching its audio
    /// (see `WAVTitleInPlace`).
    ///
    /// - Returns: `false`, having changed nothing, when the file is not laid out for it (then
    ///   `copy(_:to:title:)` does the job).
    /// - Throws: `SoundFileError` for a failed write; the file is valid, with the old or the new title.
    public static func retitleInPlace(_ path: String, title: String, comment: String? = nil) throws(SoundFileError) -> Bool {
        try WAVTitleInPlace.retitle(path, title: title, comment: comment)
    }

    /// Whether `method` writes a comment given to `copy`: all but `.id3v1` (the ID3v1 comment
    /// field holds 28 bytes, too few for more than the memo's id, and is kept as it is).
    public static func writesComment(_ method: Method) -> Bool {
        method != .id3v1
    }

    /// Lossless copy through libsndfile in the encoding's own sample width.
    private static func decodeAndEncode(
        _ reader: SoundFileReader, format: FileFormat, encoding: Encoding, to destination: String, title: String,
        comment: String?
    ) throws(SoundFileError) {
        let info = reader.info
        let settings = RecordingSettings(
            format: format, encoding: encoding, sampleRate: info.sampleRate, channels: info.channels)
        var metadata = reader.metadata
        metadata.title = title
        if let comment { metadata.comment = comment }
        // libsndfile appends " (libsndfile-1.2.0)" to the software tag it writes: keep it once.
        if let software = metadata.software, let suffix = software.range(of: " (libsndfile-") {
            metadata.software = String(software[..<suffix.lowerBound])
        }
        let writer = try SoundFileWriter(path: destination, settings: settings, metadata: metadata)
        let sampleFormat = settings.preferredSampleFormat
        let chunk = 8192
        var buffer = [UInt8](repeating: 0, count: chunk * info.channels * sampleFormat.bytesPerSample)
        var copied: Int64 = 0
        do throws(SoundFileError) {
            while true {
                let result = buffer.withUnsafeMutableBytes { raw -> Result<Int, SoundFileError> in
                    guard let base = raw.baseAddress else { return .success(0) }
                    return Result { () throws(SoundFileError) -> Int in
                        let count = try reader.read(into: base, frames: chunk, as: sampleFormat)
                        if count > 0 { try writer.write(base, frames: count, sampleFormat: sampleFormat) }
                        return count
                    }
                }
                let count = try result.get()
                if count == 0 { break }
                copied += Int64(count)
            }
            try writer.close()
        } catch {
            try? writer.close()
            throw error
        }
        if copied != info.frames {
            throw SoundFileError(
                kind: .read, path: reader.path, detail: "read \(copied) of its \(info.frames) frames; the copy is incomplete")
        }
    }
}
