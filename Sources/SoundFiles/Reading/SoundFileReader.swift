import CSndFile
import Foundation
import Glibc

/// Reads a sound file in any format libsndfile knows, or AAC in MP4 (`.m4a`, through FFmpeg:
/// `MP4AudioReader`), as interleaved int16, int32 or float32 frames.
///
/// Safe to hand between threads: every call takes an internal lock. `@unchecked Sendable`: that
/// lock (`StateLock`) is beside libsndfile's handle rather than holding it, since the calls take
/// the caller's buffers and a `Mutex`'s `inout sending` state may not meet a non-Sendable pointer.
public final class SoundFileReader: @unchecked Sendable {
    public let path: String
    public let info: SoundFileInfo
    public var metadata: SoundFileMetadata {
        get { lock.locked { storedMetadata } }
        set { lock.locked { storedMetadata = newValue } }
    }

    /// The float samples read so far that were not usable and were repaired (`UsableSamples`):
    /// every float sample this reader hands out is finite and within -1…1.
    public var replacedSamples: ReplacedSamples {
        lock.locked {
            var total = storedReplacedSamples
            if let handle { total += handle.repairedOnRead }
            return total
        }
    }

    private let lock = StateLock()
    private var storedReplacedSamples = ReplacedSamples()
    private var storedMetadata: SoundFileMetadata
    private var handle: SndFileHandle?
    private var mp4: MP4AudioReader?

    /// Opens `path` for reading.
    ///
    /// - Throws: `SoundFileError` naming the file and the cause: missing, a directory, empty,
    ///   not audio, damaged, or an encoding libsndfile cannot decode. A `.m4a` name is read
    ///   as MP4 and must hold AAC.
    public init(path: String) throws(SoundFileError) {
        try Self.checkIsNonEmptyFile(path)
        if FileFormat.named(byExtensionOf: path) == .m4a {
            let reader = try MP4AudioReader(path: path)
            self.path = path
            mp4 = reader
            storedMetadata = reader.metadata
            info = reader.info
            return
        }
        let handle = try SndFileHandle.open(path: path, mode: .read).get()
        self.path = path
        self.handle = handle
        self.storedMetadata = SoundFileMetadata.read(from: handle)
        self.info = try Self.info(of: handle)
    }

    deinit {
        handle?.close()
    }

    /// Reads up to `frames` frames into `buffer`, converting to `sampleFormat`.
    ///
    /// - Returns: the frames read; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawPointer, frames: Int, as sampleFormat: SampleFormat)
        throws(SoundFileError) -> Int
    {
        try lock.locked { () throws(SoundFileError) -> Int in
            let count: Int
            if let mp4 {
                count = try mp4.read(into: buffer, frames: frames, as: sampleFormat)
            } else {
                guard let handle else {
                    throw SoundFileError(kind: .read, path: path, detail: "the reader is closed")
                }
                guard let read = handle.read(into: buffer, frames: frames, as: sampleFormat) else {
                    throw SoundFileError(kind: .read, path: path, libraryMessage: handle.lastErrorMessage)
                }
                count = read
            }
            storedReplacedSamples += UsableSamples.repair(buffer, samples: count * info.channels, format: sampleFormat)
            return count
        }
    }

    /// Moves the read position to `frame` (0 is the start).
    public func seek(toFrame frame: Int64) throws(SoundFileError) {
        try lock.locked { () throws(SoundFileError) in
            if let mp4 { return try mp4.seek(toFrame: frame) }
            guard let handle, handle.seek(toFrame: frame) else {
                throw SoundFileError(
                    kind: .read, path: path, detail: "cannot seek to frame \(frame) of \(info.frames)",
                    libraryMessage: handle?.lastErrorMessage)
            }
        }
    }

    /// Releases the file. Further reads throw. Idempotent.
    public func close() {
        lock.locked {
            if let handle { storedReplacedSamples += handle.repairedOnRead }
            if handle != nil || mp4 != nil { UsableSamples.noteRepairs(storedReplacedSamples, readingPath: path) }
            handle?.close()
            handle = nil
            mp4?.close()
            mp4 = nil
        }
    }

    // MARK: Opening

    /// Refuses a missing path, a directory, anything but a regular file and an empty file with
    /// words better than libsndfile's, before libsndfile opens it. What is there is looked at
    /// through any symbolic link, by opening it without blocking (`O_NONBLOCK`): opening a FIFO
    /// for reading otherwise waits for a writer, in a call no signal ends.
    static func checkIsNonEmptyFile(_ path: String) throws(SoundFileError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        if descriptor < 0 {
            let code = errno
            switch code {
            case ENOENT:
                throw SoundFileError(kind: .cannotOpen, path: path, detail: "no such file", osError: ENOENT)
            case EISDIR:
                throw SoundFileError(kind: .cannotOpen, path: path, detail: "it is a directory, not a sound file")
            default:
                throw SoundFileError(kind: .cannotOpen, path: path, detail: openFailure(code), osError: code)
            }
        }
        defer { _ = Glibc.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            throw SoundFileError(kind: .cannotOpen, path: path, detail: openFailure(code), osError: code)
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "it is a directory, not a sound file")
        }
        if type != S_IFREG {
            let what: String =
                switch type {
                case S_IFCHR: "a character device"
                case S_IFBLK: "a block device"
                case S_IFSOCK: "a socket"
                case S_IFIFO: "a FIFO (named pipe)"
                default: "a special file"
                }
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "it is \(what), not a sound file")
        }
        if status.st_size == 0 {
            throw SoundFileError(kind: .corrupt, path: path, detail: "the file is empty (0 bytes)")
        }
    }

    /// The words for a failed `open`: no file descriptor left is the process's or the system's
    /// limit, never the file's fault.
    static func openFailure(_ code: Int32) -> String {
        switch code {
        case EMFILE: "too many open files: raise the limit (ulimit -n) and try again"
        case ENFILE: "the system has too many open files; close some programs and try again"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    /// The info of an open file, counting frames by decoding when the header does not know them.
    static func info(of handle: SndFileHandle, countFrames: Bool = false) throws(SoundFileError) -> SoundFileInfo {
        let raw = handle.info
        let names = FormatCodes.names(of: raw.format)
        var frames = raw.frames
        if countFrames || frames == SndFileHandle.unknownFrameCount || frames < 0 {
            frames = try countFramesByDecoding(path: handle.path)
        }
        return SoundFileInfo(
            frames: frames, sampleRate: Int(raw.samplerate), channels: Int(raw.channels),
            format: names.format, encoding: names.encoding, formatDescription: handle.formatDescription)
    }

    /// Decodes the whole file with a separate handle and counts the frames that come out.
    static func countFramesByDecoding(path: String) throws(SoundFileError) -> Int64 {
        let handle = try SndFileHandle.open(path: path, mode: .read).get()
        defer { handle.close() }
        let chunk = 8192
        let channels = max(1, Int(handle.info.channels))
        var buffer = [Float](repeating: 0, count: chunk * channels)
        var total: Int64 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes -> Int? in
                guard let base = bytes.baseAddress else { return nil }
                return handle.read(into: base, frames: chunk, as: .float32)
            }
            guard let count, count > 0 else { break }
            total += Int64(count)
        }
        return total
    }
}
