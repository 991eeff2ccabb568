import CSndFile
import Foundation

/// Reads a sound file in any format libsndfile knows, or AAC in MP4 (`.m4a`, through FFmpeg:
/// `MP4AudioReader`), as interleaved int16, int32 or float32 frames.
///
/// Safe to hand between threads: every call takes an internal lock. `@unchecked Sendable`: that
/// lock is an `NSLock` around libsndfile's handle, since the calls take the caller's buffers and
/// a `Mutex`'s `inout sending` state may not meet a non-Sendable pointer.
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

    private let lock = NSLock()
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
            handle?.close()
            handle = nil
            mp4?.close()
            mp4 = nil
        }
    }

    // MARK: Opening

    /// Refuses a missing path, a directory or an empty file with words better than libsndfile's.
    static func checkIsNonEmptyFile(_ path: String) throws(SoundFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "no such file", osError: ENOENT)
        }
        if isDirectory.boolValue {
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "it is a directory, not a sound file")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular, type != .typeSymbolicLink {
            let what: String = switch type {
            case .typeCharacterSpecial: "a character device"
            case .typeBlockSpecial: "a block device"
            case .typeSocket: "a socket"
            default: "a FIFO (named pipe) or another special file"
            }
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "it is \(what), not a sound file")
        }
        let size = attributes?[.size] as? Int
        if size == 0 {
            throw SoundFileError(kind: .corrupt, path: path, detail: "the file is empty (0 bytes)")
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
