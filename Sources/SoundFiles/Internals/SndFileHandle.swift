import CSndFile
import Platform
import Foundation

/// The one place that calls libsndfile: an open SNDFILE and the calls made on it.
///
/// Failures come back as values (`Result`, counts, `Bool`) carrying libsndfile's text and `errno`;
/// the public types turn them into `SoundFileError`. Tests can force a short write here.
///
/// Opening, reading, seeking and closing a file for reading run with the decoders' own text on
/// standard error silenced (`StandardErrorRoute`): libmpg123 prints notes on a damaged MP3
/// ("Illegal Audio-MPEG-Header", "Xing stream size off") that a command's output must not
/// carry; what is wrong with a file is said in our words, from the error libsndfile returns.
final class SndFileHandle {
    enum Mode {
        case read, write
    }

    /// A write that stopped short, and why.
    struct ShortWrite {
        var framesWritten: Int
        var osError: Int32?
        var libraryMessage: String
    }

    /// A write failure forced by tests: writes stop once `limit` frames are in the file.
    struct ForcedWriteFailure {
        var limit: Int64
        var osError: Int32
    }

    let path: String
    /// Read handles silence the decoders' text on standard error (see the type's discussion).
    let mode: Mode
    private(set) var info: SF_INFO
    private var file: OpaquePointer?
    private var framesSoFar: Int64 = 0
    var forcedWriteFailure: ForcedWriteFailure?

    private init(path: String, file: OpaquePointer, info: SF_INFO, mode: Mode) {
        self.path = path
        self.mode = mode
        self.file = file
        self.info = info
        rawSampleFormat = Self.rawSampleFormat(of: info)
    }

    /// The in-memory sample format whose bytes are exactly the file's (little-endian
    /// WAV/RF64/W64 PCM 16/32 or float on this little-endian machine), or `nil`.
    private let rawSampleFormat: SampleFormat?

    private static func rawSampleFormat(of info: SF_INFO) -> SampleFormat? {
        let format = Int(info.format)
        let major = format & Int(SF_FORMAT_TYPEMASK)
        let endian = format & Int(SF_FORMAT_ENDMASK)
        guard [SF_FORMAT_WAV, SF_FORMAT_RF64, SF_FORMAT_W64].contains(major),
            endian == Int(SF_ENDIAN_FILE) || endian == Int(SF_ENDIAN_LITTLE),
            1.littleEndian == 1
        else { return nil }
        switch format & Int(SF_FORMAT_SUBMASK) {
        case Int(SF_FORMAT_PCM_16): return .int16
        case Int(SF_FORMAT_PCM_32): return .int32
        case Int(SF_FORMAT_FLOAT): return .float32
        default: return nil
        }
    }

    deinit {
        close()
    }

    /// Opens `path`; for writing, `info` gives rate, channels and format.
    static func open(path: String, mode: Mode, info: SF_INFO = SF_INFO()) -> Result<SndFileHandle, SoundFileError> {
        var info = info
        let cMode = Int32(mode == .read ? SFM_READ : SFM_WRITE)
        let opened = decoding(mode) { () -> (OpaquePointer?, Int32, Int, String) in
            errno = 0
            let file = sf_open(path, cMode, &info)
            return (file, errno, Int(sf_error(nil)), String(cString: sf_strerror(nil)))
        }
        guard let file = opened.0 else {
            return .failure(openError(path: path, code: opened.2, message: opened.3, osError: opened.1))
        }
        return .success(SndFileHandle(path: path, file: file, info: info, mode: mode))
    }

    /// Runs `call` with the decoders' own text silenced when `mode` is reading.
    private static func decoding<Value>(_ mode: Mode, _ call: () -> Value) -> Value {
        mode == .read ? StandardErrorRoute.silencingLibraries(call) : call()
    }

    private static func openError(path: String, code: Int, message: String, osError: Int32) -> SoundFileError {
        switch code {
        case SF_ERR_UNRECOGNISED_FORMAT:
            return SoundFileError(
                kind: .unsupported, path: path, detail: "not a sound file in a format libsndfile knows",
                libraryMessage: message)
        case SF_ERR_UNSUPPORTED_ENCODING:
            return SoundFileError(
                kind: .unsupported, path: path, detail: "the encoding is not supported", libraryMessage: message)
        case SF_ERR_MALFORMED_FILE:
            return SoundFileError(kind: .corrupt, path: path, libraryMessage: message)
        case _ where osError == EMFILE || osError == ENFILE:
            return SoundFileError(
                kind: .cannotOpen, path: path, detail: SoundFileReader.openFailure(osError), osError: osError)
        default:
            // libsndfile says this (and a stale errno: ENOENT from a decoder's probing) for a
            // readable file whose bytes its decoders refuse, e.g. text named .mp3.
            if isReadableRegularFile(path) {
                return SoundFileError(
                    kind: .unsupported, path: path,
                    detail: "its contents are not audio libsndfile can decode (not a valid stream of the format its name or header claims)")
            }
            return SoundFileError(
                kind: .cannotOpen, path: path, libraryMessage: message, osError: osError == 0 ? nil : osError)
        }
    }

    /// Whether `path` is a regular file this process can open for reading.
    private static func isReadableRegularFile(_ path: String) -> Bool {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { Glibc.close(descriptor) }
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// libsndfile's text for the last error on this file.
    var lastErrorMessage: String {
        String(cString: sf_strerror(file))
    }

    // MARK: Commands

    /// Sends a command with a `Double` argument; `true` when libsndfile reports it took effect.
    @discardableResult
    func command(_ command: Int, double value: Double) -> Bool {
        guard let file else { return false }
        var value = value
        return Int(sf_command(file, Int32(command), &value, Int32(MemoryLayout<Double>.size))) == SF_TRUE
    }

    /// Sends a command whose argument is a boolean passed as the size (e.g. SFC_SET_UPDATE_HEADER_AUTO).
    @discardableResult
    func command(_ command: Int, flag: Bool) -> Bool {
        guard let file else { return false }
        return Int(sf_command(file, Int32(command), nil, Int32(flag ? SF_TRUE : SF_FALSE))) == SF_TRUE
    }

    /// Rewrites the header now so that it describes every frame written so far
    /// (SFC_UPDATE_HEADER_NOW; nothing for formats without a header to update).
    func updateHeader() {
        guard let file else { return }
        sf_command(file, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
    }

    /// Sets a string tag (SF_STR_*); `false` if the format has no such field.
    @discardableResult
    func setString(_ value: String, for field: Int) -> Bool {
        guard let file else { return false }
        return sf_set_string(file, Int32(field), value) == 0
    }

    /// Reads a string tag (SF_STR_*).
    func string(for field: Int) -> String? {
        guard let file, let text = sf_get_string(file, Int32(field)) else { return nil }
        return String(cString: text)
    }

    /// libsndfile's names for the container and encoding, e.g. "FLAC (Free Lossless Audio Codec), Signed 16 bit PCM".
    var formatDescription: String {
        let names = [Int(info.format) & SF_FORMAT_TYPEMASK, Int(info.format) & SF_FORMAT_SUBMASK].compactMap {
            formatName($0)
        }
        return names.joined(separator: ", ")
    }

    private func formatName(_ code: Int) -> String? {
        var formatInfo = SF_FORMAT_INFO()
        formatInfo.format = Int32(code)
        // SFC_GET_FORMAT_INFO answers for a major format or a subtype alike.
        guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &formatInfo, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
            let name = formatInfo.name
        else { return nil }
        return String(cString: name)
    }

    // MARK: Samples

    /// Writes interleaved frames; returns `nil` when all were written, else what happened.
    /// Float samples that are not usable (`UsableSamples`) are repaired in a copy first: this
    /// is the last step before every libsndfile encoder, whatever read the samples (an
    /// intermediate left by an older recording, too).
    func write(_ buffer: UnsafeRawPointer, frames: Int, sampleFormat: SampleFormat) -> ShortWrite? {
        if sampleFormat == .float32 {
            let samples = frames * Int(info.channels)
            let given = UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: Float.self), count: samples)
            if !UsableSamples.areUsable(given) {
                var copy = Array(given)
                replacedSamples += copy.withUnsafeMutableBufferPointer { UsableSamples.repair($0) }
                return copy.withUnsafeBytes { bytes in
                    writeUsable(bytes.baseAddress ?? buffer, frames: frames, sampleFormat: sampleFormat)
                }
            }
        }
        return writeUsable(buffer, frames: frames, sampleFormat: sampleFormat)
    }

    /// What `write` repaired so far (`UsableSamples`).
    private(set) var replacedSamples = ReplacedSamples()

    private func writeUsable(_ buffer: UnsafeRawPointer, frames: Int, sampleFormat: SampleFormat) -> ShortWrite? {
        guard let file else {
            return ShortWrite(framesWritten: 0, osError: nil, libraryMessage: "the file is closed")
        }
        var wanted = frames
        var forced: Int32?
        if let failure = forcedWriteFailure, framesSoFar + Int64(frames) > failure.limit {
            wanted = Int(max(0, failure.limit - framesSoFar))
            forced = failure.osError
        }
        errno = 0
        let count = Int64(wanted)
        let written: Int64
        if sampleFormat == rawSampleFormat {
            // The bytes in memory are the bytes of the file: skip libsndfile's conversion
            // copy. sf_write_raw keeps the frame count and the auto-updated header as
            // sf_writef_* do.
            let bytesPerFrame = Int64(sampleFormat.bytesPerSample) * Int64(info.channels)
            written = sf_write_raw(file, buffer, count * bytesPerFrame) / bytesPerFrame
        } else {
            written =
                switch sampleFormat {
                case .int16: sf_writef_short(file, buffer.assumingMemoryBound(to: Int16.self), count)
                case .int32: sf_writef_int(file, buffer.assumingMemoryBound(to: Int32.self), count)
                case .float32: sf_writef_float(file, buffer.assumingMemoryBound(to: Float.self), count)
                }
        }
        let osError = errno
        framesSoFar += max(0, written)
        if let forced {
            return ShortWrite(
                framesWritten: Int(written), osError: forced, libraryMessage: String(cString: strerror(forced)))
        }
        if written >= Int64(frames) {
            // An encoder (LAME, Vorbis, Opus) counts the frames it was given as written even
            // when writing what it made of them failed: libsndfile then only notes the system
            // error (psf_log_syserr), which sf_error reports until the next call. None of this
            // call's frames is known to be in the file.
            guard sf_error(file) != 0 else { return nil }
            return ShortWrite(
                framesWritten: 0, osError: osError == 0 ? nil : osError, libraryMessage: lastErrorMessage)
        }
        return ShortWrite(
            framesWritten: Int(max(0, written)), osError: osError == 0 ? nil : osError,
            libraryMessage: lastErrorMessage)
    }

    /// Reads up to `frames` interleaved frames; the count read (0 at the end), or `nil` on an error.
    func read(into buffer: UnsafeMutableRawPointer, frames: Int, as sampleFormat: SampleFormat) -> Int? {
        guard let file else { return nil }
        if sampleFormat != .float32, holdsFloatingPointSamples {
            return readFloatingPoint(into: buffer, frames: frames, as: sampleFormat)
        }
        let count = Int64(frames)
        let read: Int64 = Self.decoding(mode) {
            switch sampleFormat {
            case .int16: sf_readf_short(file, buffer.assumingMemoryBound(to: Int16.self), count)
            case .int32: sf_readf_int(file, buffer.assumingMemoryBound(to: Int32.self), count)
            case .float32: sf_readf_float(file, buffer.assumingMemoryBound(to: Float.self), count)
            }
        }
        return read < 0 ? nil : Int(read)
    }

    /// Whether the file stores float or double PCM samples.
    private var holdsFloatingPointSamples: Bool {
        let subtype = Int(info.format) & Int(SF_FORMAT_SUBMASK)
        return subtype == Int(SF_FORMAT_FLOAT) || subtype == Int(SF_FORMAT_DOUBLE)
    }

    /// Float samples read as integers that were not usable (`UsableSamples`) and were
    /// repaired before the conversion.
    private(set) var repairedOnRead = ReplacedSamples()

    /// Reusable room for float samples being converted to integers.
    private var floatScratch: [Float] = []

    /// Float or double files read as integers: libsndfile either leaves ±1.0 unscaled (every
    /// sample rounds to 0 or ±1) or, with SFC_SET_SCALE_FLOAT_INT_READ, normalises to the
    /// file's own peak (a quiet file would read full scale). Neither keeps the level, so read
    /// floats and scale by full scale here, clipping anything beyond ±1.
    private func readFloatingPoint(into buffer: UnsafeMutableRawPointer, frames: Int, as sampleFormat: SampleFormat) -> Int? {
        guard let file else { return nil }
        let samples = frames * Int(info.channels)
        if floatScratch.count < samples { floatScratch = [Float](repeating: 0, count: samples) }
        let read = floatScratch.withUnsafeMutableBufferPointer { scratch -> Int64 in
            guard let base = scratch.baseAddress else { return 0 }
            return Self.decoding(mode) { sf_readf_float(file, base, Int64(frames)) }
        }
        guard read >= 0 else { return nil }
        let count = Int(read) * Int(info.channels)
        repairedOnRead += floatScratch.withUnsafeMutableBufferPointer {
            UsableSamples.repair(UnsafeMutableBufferPointer(rebasing: $0[0..<count]))
        }
        switch sampleFormat {
        case .int16:
            let out = buffer.assumingMemoryBound(to: Int16.self)
            for index in 0..<count {
                out[index] = Int16((max(-1, min(1, floatScratch[index])) * 32_767).rounded())
            }
        case .int32:
            let out = buffer.assumingMemoryBound(to: Int32.self)
            for index in 0..<count {
                out[index] = Int32(clamping: Int64((Double(max(-1, min(1, floatScratch[index]))) * 2_147_483_647).rounded()))
            }
        case .float32:
            break
        }
        return Int(read)
    }

    /// Moves to a frame from the start; `false` if libsndfile refuses.
    func seek(toFrame frame: Int64) -> Bool {
        guard let file else { return false }
        return Self.decoding(mode) { sf_seek(file, frame, SEEK_SET) } == frame
    }

    /// Closes the file (flushing encoders and writing final headers); `nil` on success, else libsndfile's text.
    @discardableResult
    func close() -> String? {
        guard let file else { return nil }
        self.file = nil
        let result = Self.decoding(mode) { sf_close(file) }
        return result == 0 ? nil : String(cString: sf_error_number(result))
    }

    /// The count libsndfile gives when it cannot know the length (e.g. FLAC left unfinished).
    static let unknownFrameCount = Int64.max
}
