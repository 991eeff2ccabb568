import Foundation

/// Makes what a crashed recording left behind readable again.
public enum SoundFileRecovery {
    /// After a crash (kill -9, power loss of the process): makes the file at `path` readable and
    /// returns what it now holds.
    ///
    /// - An intermediate left by a killed `.intermediate` recording (Ogg Vorbis, MP3) is encoded
    ///   into `path` with the settings and tags saved beside it, then removed.
    /// - A WAV whose header sizes are stale is given sizes matching the data on disk, so that
    ///   tools other than libsndfile (sox) read it too.
    /// - FLAC, Ogg and MP3 of unknown or doubtful length are readable as they are; the frame count
    ///   returned is found by decoding.
    ///
    /// - Throws: `SoundFileError` when there is nothing readable at `path`.
    public static func repair(path: String) throws(SoundFileError) -> SoundFileInfo {
        let intermediate = intermediatePath(for: path)
        if FileManager.default.fileExists(atPath: intermediate) {
            try encodeLeftoverIntermediate(intermediate, into: path)
        } else {
            try SoundFileReader.checkIsNonEmptyFile(path)
            try WAVHeaderRepair.repairIfStale(path: path)
        }
        let handle = try SndFileHandle.open(path: path, mode: .read).get()
        defer { handle.close() }
        let compressed = FormatCodes.names(of: handle.info.format).encoding.map { !$0.isPCM } ?? true
        return try SoundFileReader.info(of: handle, countFrames: compressed)
    }

    /// The hidden W64 file an `.intermediate` recording to `path` writes first:
    /// `.<name>.partial.w64` in the same folder.
    public static func intermediatePath(for path: String) -> String {
        hiddenSibling(of: path, suffix: ".partial.w64")
    }

    /// `dir/.name<suffix>` for `dir/name`.
    static func hiddenSibling(of path: String, suffix: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = "." + url.lastPathComponent + suffix
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    private static func encodeLeftoverIntermediate(_ intermediate: String, into path: String) throws(SoundFileError) {
        let probe = try SndFileHandle.open(path: intermediate, mode: .read).get()
        let sampleRate = Int(probe.info.samplerate)
        let channels = Int(probe.info.channels)
        probe.close()
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
        try IntermediateEncoder.encode(
            intermediate: intermediate, into: path, settings: settings, metadata: recipe?.metadata ?? .init())
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
