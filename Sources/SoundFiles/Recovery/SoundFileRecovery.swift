import Foundation

/// Makes what a crashed recording left behind readable again.
public enum SoundFileRecovery {
    /// After a crash (kill -9, power loss of the process): makes the file at `path` readable and
    /// returns what it now holds.
    ///
    /// - An intermediate left by a killed `.intermediate` recording (Ogg Vorbis, MP3, M4A) is encoded
    ///   into `path` with the settings and tags saved beside it, then removed. It is encoded whole,
    ///   over whatever part of `path` the recording had encoded before it died (libsndfile cannot
    ///   append to an MP3 or Ogg stream).
    /// - A WAV whose header sizes are stale is given sizes matching the data on disk, so that
    ///   tools other than libsndfile (sox) read it too.
    /// - FLAC, Ogg and MP3 of unknown or doubtful length are readable as they are; the frame count
    ///   returned is found by decoding.
    ///
    /// - Throws: `SoundFileError` when there is nothing readable at `path`.
    /// - Parameter proceed: while an intermediate is encoded, called after every slice
    ///   (`IntermediateEncoding.sliceFrames`) with the frames encoded and the frames to encode;
    ///   returning false stops the encode, keeps the intermediate for the next attempt and
    ///   throws an error of kind `.interrupted`.
    public static func repair(
        path: String, proceed: (_ encoded: Int64, _ total: Int64) -> Bool = { _, _ in true }
    ) throws(SoundFileError) -> SoundFileInfo {
        let intermediate = intermediatePath(for: path)
        if FileManager.default.fileExists(atPath: intermediate) {
            guard try encodeLeftoverIntermediate(intermediate, into: path, proceed: proceed) else {
                throw SoundFileError(kind: .interrupted, path: path, detail: "the audio is kept in \(intermediate)")
            }
        } else {
            try SoundFileReader.checkIsNonEmptyFile(path)
            try WAVHeaderRepair.repairIfStale(path: path)
        }
        if FileFormat.named(byExtensionOf: path) == .m4a {
            // Complete or absent (written beside it and renamed), and its length in the MP4 index.
            return try SoundFileReader(path: path).info
        }
        let handle = try SndFileHandle.open(path: path, mode: .read).get()
        defer { handle.close() }
        let compressed = FormatCodes.names(of: handle.info.format).encoding.map { !$0.isPCM } ?? true
        return try SoundFileReader.info(of: handle, countFrames: compressed)
    }

    /// The hidden W64 file an `.intermediate` recording to `path` writes first:
    /// `.<name>.partial.w64` in the same folder.
    public static func intermediatePath(for path: String) -> String {
        TemporarySibling.intermediate.path(beside: path)
    }

    /// Whether a recording at `path` left an intermediate that recovery must encode (the slow
    /// part of a repair).
    public static func needsEncoding(path: String) -> Bool {
        FileManager.default.fileExists(atPath: intermediatePath(for: path))
    }

    /// Returns false when `proceed` stopped the encode.
    private static func encodeLeftoverIntermediate(
        _ intermediate: String, into path: String, proceed: (Int64, Int64) -> Bool
    ) throws(SoundFileError) -> Bool {
        let descriptor = open(intermediate, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SoundFileError(kind: .cannotOpen, path: intermediate, osError: errno) }
        let layout: IntermediateLayout
        do {
            layout = try IntermediateLayout.read(descriptor: descriptor, path: intermediate)
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        let sampleRate = layout.sampleRate
        let channels = layout.channels
        let recipe = IntermediateRecipe.load(for: path)
        let settings: RecordingSettings
        if let saved = recipe?.settings(sampleRate: sampleRate, channels: channels) {
            settings = saved
        } else if let format = RecordingSettings.inferred(fromPath: path) {
            settings = RecordingSettings(format: format, sampleRate: sampleRate, channels: channels)
        } else {
            throw SoundFileError(
                kind: .unsupported, path: path,
                detail: "the recording's settings are lost and the file name names no format; "
                    + "the audio is kept in \(intermediate)")
        }
        let encoding = try IntermediateEncoding(
            intermediate: intermediate, into: path, settings: settings, metadata: recipe?.metadata ?? .init())
        return try encoding.encodeAll(proceed: proceed) != nil
    }
}

extension Encoding {
    /// Plain PCM, whose length the header states exactly.
    var isPCM: Bool {
        switch self {
        case .pcm16, .pcm24, .pcm32, .float, .ulaw, .alaw: true
        default: false
        }
    }
}
