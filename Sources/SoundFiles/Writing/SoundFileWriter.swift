import CSndFile
import Foundation

/// Writes one recording: validates the settings, configures libsndfile for crash safety and
/// quality, writes tags, and finalises the file on `close()`.
///
/// Meant for one writer thread, but safe to hand between threads: every call takes an internal lock.
/// `@unchecked Sendable`: that lock (`StateLock`) is beside libsndfile's handle rather than
/// holding it, since the calls take the caller's buffers and a `Mutex`'s `inout sending` state may
/// not meet a non-Sendable pointer.
public final class SoundFileWriter: @unchecked Sendable {
    public let path: String
    public let settings: RecordingSettings
    public let metadata: SoundFileMetadata

    /// Frames accepted by `write` so far.
    public var framesWritten: Int64 {
        lock.locked { storedFramesWritten }
    }

    /// Where samples go while recording: `path` itself, or the hidden W64 intermediate.
    public var recordingPath: String {
        settings.crashSafety == .intermediate ? SoundFileRecovery.intermediatePath(for: path) : path
    }

    /// For `.headerUpdatedOnWrite`: the most frames written between two header rewrites
    /// (0.25 s of audio); `nil` for formats that keep no such header.
    public let headerUpdateInterval: Int64?

    /// The most frames the file takes (`RecordingSettings.maximumFrames`: AIFF, IMA ADPCM WAV);
    /// `nil` for the formats that grow past 4 GiB.
    private var frameLimit: Int64?

    private let lock = StateLock()
    private var storedFramesWritten: Int64 = 0
    /// Frames the header on disk describes (for `.headerUpdatedOnWrite`).
    private var framesInHeader: Int64 = 0
    private var handle: SndFileHandle?
    private var isClosed = false

    /// Creates (or truncates) the file and prepares it for writing.
    ///
    /// - Throws: `SoundFileError` of kind `.unsupported` for refused settings or an M4A file
    ///   without FFmpeg (nothing is created), or `.cannotOpen` when the file cannot be created.
    public init(path: String, settings: RecordingSettings, metadata: SoundFileMetadata = .init())
        throws(SoundFileError)
    {
        do {
            try settings.validate(path: path)
        } catch {
            throw SoundFileError(kind: .unsupported, path: path, detail: error.message)
        }
        // Before any file: a recording that could never be encoded is refused, not kept half.
        if settings.format == .m4a, let failure = FFmpegLibraries.loadFailure() {
            throw SoundFileError(kind: .unsupported, path: path, detail: "M4A files need FFmpeg. " + failure)
        }
        self.path = path
        self.settings = settings
        self.metadata = metadata
        headerUpdateInterval =
            settings.crashSafety == .headerUpdatedOnWrite ? Int64(max(1, settings.sampleRate / 4)) : nil
        frameLimit = settings.maximumFrames
        if settings.crashSafety == .intermediate {
            handle = try Self.openIntermediate(for: path, settings: settings, metadata: metadata)
        } else {
            handle = try Self.openFinal(path: path, settings: settings, metadata: metadata)
        }
    }

    deinit {
        handle?.close()
    }

    /// Test seam: makes writes stop short once `limit` frames are in the file, failing with `osError`.
    func forceWriteFailure(afterFrames limit: Int64, osError: Int32) {
        lock.locked {
            handle?.forcedWriteFailure = .init(limit: limit, osError: osError)
        }
    }

    /// Test seam: the file takes at most `limit` frames, as if its format's 4 GiB were reached there.
    func limitFrames(to limit: Int64) {
        lock.locked { frameLimit = limit }
    }

    /// Writes `frames` interleaved frames of `sampleFormat` from `buffer`.
    ///
    /// - Throws: `SoundFileError` on a short write, naming the OS error: `.diskFull` (ENOSPC),
    ///   `.fileTooLarge` (EFBIG) or `.write`; `.formatSizeLimit` once an AIFF or IMA ADPCM WAV
    ///   holds `RecordingSettings.maximumFrames` (the frames up to it are written). The frames
    ///   written before stay in the file and `close()` still finalises it.
    public func write(_ buffer: UnsafeRawPointer, frames: Int, sampleFormat: SampleFormat) throws(SoundFileError) {
        try lock.locked { () throws(SoundFileError) in
            guard let handle else {
                throw SoundFileError(kind: .write, path: path, detail: "the writer is closed")
            }
            guard frames > 0 else { return }
            if let frameLimit, storedFramesWritten + Int64(frames) > frameLimit {
                let fitting = Int(max(0, frameLimit - storedFramesWritten))
                if fitting > 0 { try write(buffer, frames: fitting, sampleFormat: sampleFormat, to: handle) }
                handle.updateHeader()
                framesInHeader = storedFramesWritten
                throw SoundFileError(
                    kind: .formatSizeLimit, path: path, detail: Self.sizeLimitDetail(settings, frames: frameLimit))
            }
            try write(buffer, frames: frames, sampleFormat: sampleFormat, to: handle)
        }
    }

    /// `write` under the lock, within the limit.
    private func write(
        _ buffer: UnsafeRawPointer, frames: Int, sampleFormat: SampleFormat, to handle: SndFileHandle
    ) throws(SoundFileError) {
        if let short = handle.write(buffer, frames: frames, sampleFormat: sampleFormat) {
            storedFramesWritten += Int64(short.framesWritten)
            throw SoundFileError(
                kind: SoundFileError.writeKind(forOSError: short.osError), path: handle.path,
                detail: "wrote \(short.framesWritten) of \(frames) frames", libraryMessage: short.libraryMessage,
                osError: short.osError)
        }
        storedFramesWritten += Int64(frames)
        // After the first write too: libsndfile's first header claims no data at all.
        if let headerUpdateInterval,
            framesInHeader == 0 || storedFramesWritten - framesInHeader >= headerUpdateInterval
        {
            handle.updateHeader()
            framesInHeader = storedFramesWritten
        }
    }

    /// Why a file stopped at its format's limit, and what records longer.
    private static func sizeLimitDetail(_ settings: RecordingSettings, frames: Int64) -> String {
        let seconds = frames / Int64(max(1, settings.sampleRate))
        let length = String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        let what = settings.format == .wav ? "a WAV coded as \(settings.encoding.displayName)" : "an \(settings.format.displayName) file"
        return "\(what) cannot grow past 4 GiB (\(length) at these settings); "
            + "WAV in PCM (RF64 past 4 GiB), CAF or FLAC record longer"
    }

    /// Finalises the file; for `.intermediate` formats, encodes the intermediate into `path` and
    /// removes it. Idempotent.
    ///
    /// - Parameter encodingIntermediate: for `.intermediate` formats, whether to encode the
    ///   intermediate now (all of it). A recording that encodes while it records
    ///   (`startEncoding()`) passes false: it only closes the intermediate, and its
    ///   `IntermediateEncoding` finishes the final file.
    /// - Throws: `SoundFileError` if finalising or encoding fails; an intermediate is then kept
    ///   so that `SoundFileRecovery.repair(path:)` can try again.
    public func close(encodingIntermediate: Bool = true) throws(SoundFileError) {
        try lock.locked { () throws(SoundFileError) in
            guard !isClosed, let handle else { return }
            isClosed = true
            self.handle = nil
            if let message = handle.close() {
                throw SoundFileError(kind: .write, path: handle.path, detail: "closing failed", libraryMessage: message)
            }
            if settings.crashSafety == .intermediate, encodingIntermediate {
                _ = try IntermediateEncoding(
                    intermediate: handle.path, into: path, settings: settings, metadata: metadata
                ).encodeAll()
            }
        }
    }

    /// For `.intermediate` formats: starts the final file beside the intermediate being
    /// written, for an encoder that follows the writer (`IntermediateEncoding.encodeSlice`,
    /// up to `framesWritten`). `nil` for the other formats.
    ///
    /// - Throws: `SoundFileError` when the final file cannot be created.
    public func startEncoding() throws(SoundFileError) -> IntermediateEncoding? {
        guard settings.crashSafety == .intermediate else { return nil }
        return try IntermediateEncoding(
            intermediate: recordingPath, into: path, settings: settings, metadata: metadata)
    }

    // MARK: Opening

    /// Opens the target itself, with tags, quality and crash-safety commands applied before any audio.
    static func openFinal(path: String, settings: RecordingSettings, metadata: SoundFileMetadata)
        throws(SoundFileError) -> SndFileHandle
    {
        var info = SF_INFO()
        info.samplerate = Int32(settings.sampleRate)
        info.channels = Int32(settings.channels)
        info.format = FormatCodes.code(format: settings.format, encoding: settings.encoding)
        let handle = try SndFileHandle.open(path: path, mode: .write, info: info).get()
        metadata.write(to: handle)
        configure(handle, for: settings)
        return handle
    }

    private static func configure(_ handle: SndFileHandle, for settings: RecordingSettings) {
        // Float input into integer encodings clips instead of wrapping around.
        handle.command(SFC_SET_CLIPPING, flag: true)
        if FormatCodes.isRF64(handle.info.format) {
            // Plain RIFF/WAVE while under 4 GiB (a JUNK chunk keeps room for ds64), RF64 from
            // the header rewrite after the file passes it. Taken only before the first frame.
            handle.command(SFC_RF64_AUTO_DOWNGRADE, flag: true)
        }
        scaleIntegersIntoFloat(handle)
        switch settings.encoding {
        case .vorbis, .opus, .mp3:
            handle.command(SFC_SET_VBR_ENCODING_QUALITY, double: settings.quality.unitValue)
        default:
            if settings.format == .flac {
                handle.command(SFC_SET_COMPRESSION_LEVEL, double: settings.quality.unitValue)
            }
        }
        switch settings.crashSafety {
        case .headerUpdatedOnWrite:
            // Not SFC_SET_UPDATE_HEADER_AUTO, which rewrites the header after every write (five
            // system calls each time, most of the writer's own cost on a 0.1 s block): `write`
            // rewrites it once `headerUpdateInterval` frames have gone in since the last time.
            // (Never auto-update Ogg either way: it corrupts the stream, libsndfile #1080.)
            break
        case .streaming where settings.format == .opus:
            handle.command(SFC_SET_OGG_PAGE_LATENCY_MS, double: opusPageLatencyMilliseconds)
        case .streaming, .intermediate:
            break
        }
    }

    /// Ogg page latency asked of the Opus encoder. libsndfile's default of 1000 ms loses about 1 s
    /// on kill -9; 100 ms loses about 126 ms (measured). The command answers 0 but takes effect.
    private static let opusPageLatencyMilliseconds = 100.0

    /// Makes int16/int32 input land in float files and float codecs as -1…1, not as raw integers
    /// (libsndfile's default, which would clip everything).
    private static func scaleIntegersIntoFloat(_ handle: SndFileHandle) {
        handle.command(SFC_SET_SCALE_INT_FLOAT_WRITE, flag: true)
    }

    /// Opens the W64 intermediate and records the recipe beside it, so recovery can finish the job.
    private static func openIntermediate(for path: String, settings: RecordingSettings, metadata: SoundFileMetadata)
        throws(SoundFileError) -> SndFileHandle
    {
        let intermediate = SoundFileRecovery.intermediatePath(for: path)
        try IntermediateRecipe(settings: settings, metadata: metadata).save(for: path)
        var info = SF_INFO()
        info.samplerate = Int32(settings.sampleRate)
        info.channels = Int32(settings.channels)
        info.format = FormatCodes.intermediateCode(for: settings.encoding)
        switch SndFileHandle.open(path: intermediate, mode: .write, info: info) {
        case .success(let handle):
            scaleIntegersIntoFloat(handle)
            return handle
        case .failure(let error):
            IntermediateRecipe.remove(for: path)
            throw error
        }
    }
}
