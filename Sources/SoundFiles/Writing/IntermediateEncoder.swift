import Foundation

/// Encodes a W64 intermediate into the final Ogg Vorbis, MP3 or CAF ALAC file, then removes it.
enum IntermediateEncoder {
    private enum Step {
        case copied(Int), finished, readFailed, shortWrite(SndFileHandle.ShortWrite)
    }

    /// Frames moved per read/write while encoding.
    private static let chunkFrames = 16384

    /// Encodes `intermediate` into `path` with `settings` (its rate and channels are taken from the
    /// intermediate) and `metadata`; on success removes the intermediate and its recipe.
    ///
    /// - Returns: the frames encoded.
    /// - Throws: `SoundFileError`; the intermediate is then kept.
    @discardableResult
    static func encode(intermediate: String, into path: String, settings: RecordingSettings, metadata: SoundFileMetadata)
        throws(SoundFileError) -> Int64
    {
        let source = try SndFileHandle.open(path: intermediate, mode: .read).get()
        defer { source.close() }
        var settings = settings
        settings.sampleRate = Int(source.info.samplerate)
        settings.channels = Int(source.info.channels)
        let target = try SoundFileWriter.openFinal(path: path, settings: settings, metadata: metadata)
        defer { target.close() }
        let sampleFormat = settings.preferredSampleFormat
        var buffer = [UInt8](repeating: 0, count: chunkFrames * settings.channels * sampleFormat.bytesPerSample)
        var total: Int64 = 0
        while true {
            let step = buffer.withUnsafeMutableBytes { bytes -> Step in
                guard let base = bytes.baseAddress, let read = source.read(into: base, frames: chunkFrames, as: sampleFormat)
                else { return .readFailed }
                if read == 0 { return .finished }
                if let short = target.write(UnsafeRawPointer(base), frames: read, sampleFormat: sampleFormat) {
                    return .shortWrite(short)
                }
                return .copied(read)
            }
            switch step {
            case .copied(let frames):
                total += Int64(frames)
                continue
            case .finished:
                break
            case .readFailed:
                throw SoundFileError(kind: .read, path: intermediate, libraryMessage: source.lastErrorMessage)
            case .shortWrite(let short):
                throw SoundFileError(
                    kind: SoundFileError.writeKind(forOSError: short.osError), path: path,
                    detail: "encoding stopped after \(total + Int64(short.framesWritten)) frames; "
                        + "the recording is kept in \(intermediate)",
                    libraryMessage: short.libraryMessage, osError: short.osError)
            }
            break
        }
        if let message = target.close() {
            throw SoundFileError(kind: .write, path: path, detail: "closing failed", libraryMessage: message)
        }
        try? FileManager.default.removeItem(atPath: intermediate)
        IntermediateRecipe.remove(for: path)
        return total
    }
}
