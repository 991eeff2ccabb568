import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Encodes a W64 intermediate into its final file (Ogg Vorbis, MP3, ALAC in CAF, AAC in MP4) a slice at a
/// time, reading back what the intermediate's writer has already put on disk.
///
/// A recording encodes while it records (its `RecordingSink` runs one of these on a thread of
/// its own), so that at stop only the last moments are left; recovery after a crash encodes a
/// leftover intermediate with the same code, in slices it can report and interrupt.
///
/// The samples are read with `pread` straight from the intermediate's data chunk, not through
/// libsndfile: libsndfile reads the length from the header once, at opening, and the header of
/// an intermediate being written (or left by kill -9) says nothing about the audio after it.
/// libsndfile writes with plain write(2), so every frame its writer has accepted is readable
/// from another descriptor. Only when `finish()` has closed the final file are the intermediate
/// and its recipe removed: until then a crash leaves everything needed to encode again.
///
/// Safe to hand between threads (an encoding thread, then the one that finishes it): every call
/// takes an internal lock. `@unchecked Sendable`: that lock (`StateLock`) is around libsndfile's
/// handle, as in `SoundFileWriter` (a `Mutex`'s state may not meet the caller's buffers).
public final class IntermediateEncoding: @unchecked Sendable {
    /// The W64 intermediate read from.
    public let intermediate: String
    /// The final file written.
    public let path: String
    /// Rate and channels of the intermediate.
    public let sampleRate: Int
    public let channels: Int

    private let lock = StateLock()
    private var target: Target?
    private let descriptor: Int32
    private let layout: IntermediateLayout
    private var encoded: Int64 = 0
    private var raw: [UInt8] = []
    private var widened: [Int32] = []
    private var isFinished = false

    /// Frames read per slice: 0.1 s at 48 kHz, a few milliseconds of encoding, so that a caller
    /// asking to stop (or to take over) waits no longer than that.
    public static let sliceFrames = 4800

    /// Opens the intermediate for reading and creates (or truncates) the final file.
    ///
    /// - Parameters:
    ///   - intermediate: the W64 file; its header must already be on disk (the writer writes it
    ///     when it opens the file).
    ///   - path: the final file.
    ///   - settings: format, encoding and quality of the final file; rate and channels are the
    ///     intermediate's.
    ///   - metadata: the tags of the final file.
    /// - Throws: `SoundFileError`: `.cannotOpen` when either file cannot be opened, `.corrupt`
    ///   when the intermediate is not a W64 file of samples we wrote.
    public init(intermediate: String, into path: String, settings: RecordingSettings, metadata: SoundFileMetadata)
        throws(SoundFileError)
    {
        self.intermediate = intermediate
        self.path = path
        let descriptor = Glibc.open(intermediate, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SoundFileError(kind: .cannotOpen, path: intermediate, osError: errno)
        }
        let layout: IntermediateLayout
        do {
            layout = try IntermediateLayout.read(descriptor: descriptor, path: intermediate)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        var settings = settings
        settings.sampleRate = layout.sampleRate
        settings.channels = layout.channels
        do {
            target =
                settings.format == .m4a
                ? .mp4(try MP4AudioWriter(path: path, settings: settings, metadata: metadata))
                : .soundFile(try SoundFileWriter.openFinal(path: path, settings: settings, metadata: metadata))
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.layout = layout
        sampleRate = layout.sampleRate
        channels = layout.channels
    }

    deinit {
        if case .soundFile(let handle) = target { handle.close() }
        Glibc.close(descriptor)
    }

    /// Frames encoded into the final file so far.
    public var framesEncoded: Int64 {
        lock.locked { encoded }
    }

    /// Whole frames in the intermediate on disk now (what a writer that stopped, or a killed
    /// process, left there).
    public var framesOnDisk: Int64 {
        lock.locked { layout.frames(inFileOfLength: Self.length(of: descriptor)) }
    }

    /// Encodes the next frames before `available` (the frames the intermediate's writer has
    /// written), at most `sliceFrames` of them.
    ///
    /// - Returns: the frames encoded by this call; 0 when there were none to encode.
    /// - Throws: `SoundFileError`: a failed read of the intermediate, or a failed write of the
    ///   final file (`.diskFull`, `.fileTooLarge`, `.write`), naming the intermediate as where
    ///   the recording is kept.
    @discardableResult
    public func encodeSlice(upTo available: Int64) throws(SoundFileError) -> Int {
        try lock.locked { () throws(SoundFileError) -> Int in
            guard let target, !isFinished else { return 0 }
            let frames = Int(min(Int64(Self.sliceFrames), available - encoded))
            guard frames > 0 else { return 0 }
            let bytes = frames * layout.bytesPerFrame
            if raw.count < bytes { raw = [UInt8](repeating: 0, count: bytes) }
            let offset = layout.dataOffset + encoded * Int64(layout.bytesPerFrame)
            let read = raw.withUnsafeMutableBytes { buffer in
                Self.readFully(descriptor, into: buffer.baseAddress, count: bytes, at: offset)
            }
            guard read == bytes else {
                throw SoundFileError(
                    kind: .read, path: intermediate,
                    detail: "frame \(encoded + Int64(read / layout.bytesPerFrame)) is not on disk yet",
                    osError: read < 0 ? errno : nil)
            }
            switch target {
            case .soundFile(let handle):
                if let short = write(frames: frames, to: handle) {
                    throw SoundFileError(
                        kind: SoundFileError.writeKind(forOSError: short.osError), path: path,
                        detail: "encoding stopped after \(encoded + Int64(short.framesWritten)) frames; "
                            + "the recording is kept in \(intermediate)",
                        libraryMessage: short.libraryMessage, osError: short.osError)
                }
            case .mp4(let writer):
                do throws(SoundFileError) {
                    // An M4A's intermediate is float (FormatCodes.intermediateCode), never packed 24-bit.
                    let format: SampleFormat = layout.sample == .int16 ? .int16 : layout.sample == .int32 ? .int32 : .float32
                    guard layout.sample != .int24 else {
                        throw SoundFileError(kind: .corrupt, path: intermediate, detail: "24-bit samples for AAC")
                    }
                    try raw.withUnsafeBytes { buffer -> Result<Void, SoundFileError> in
                        guard let base = buffer.baseAddress else { return .success(()) }
                        return Result { () throws(SoundFileError) in
                            try writer.write(base, frames: frames, sampleFormat: format)
                        }
                    }.get()
                } catch {
                    throw keptInIntermediate(error, detail: "encoding stopped after \(encoded) frames")
                }
            }
            encoded += Int64(frames)
            return frames
        }
    }

    /// Closes the final file (the encoder writes its last frames and trailer), then removes
    /// the intermediate and its recipe. Idempotent.
    ///
    /// - Throws: `SoundFileError` when closing fails; the intermediate is then kept.
    public func finish() throws(SoundFileError) {
        try lock.locked { () throws(SoundFileError) in
            guard let target, !isFinished else { return }
            isFinished = true
            self.target = nil
            switch target {
            case .soundFile(let handle):
                if let message = handle.close() {
                    throw SoundFileError(kind: .write, path: path, detail: "closing failed", libraryMessage: message)
                }
            case .mp4(let writer):
                do throws(SoundFileError) {
                    try writer.close()
                } catch {
                    throw keptInIntermediate(error, detail: "finishing the file failed")
                }
            }
            try? FileManager.default.removeItem(atPath: intermediate)
            IntermediateRecipe.remove(for: path)
        }
    }

    /// Closes the final file without finishing and removes it: the intermediate and its recipe
    /// stay, so that recovery encodes the recording again from its start. Idempotent.
    ///
    /// The unfinished final file goes: it holds only part of the recording (a full disk cut it,
    /// or the caller stopped), would play as if it were the memo, and takes room the encode
    /// needs once there is some.
    public func abandon() {
        lock.locked {
            guard let target, !isFinished else { return }
            isFinished = true
            self.target = nil
            // An MP4 writer dropped here removes its temporary file: the target stays absent.
            if case .soundFile(let handle) = target {
                _ = handle.close()
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// Encodes the whole intermediate as it is on disk, then finishes.
    ///
    /// - Parameter proceed: called after every slice with the frames encoded and the frames to
    ///   encode; returning false stops (the intermediate is kept, `abandon()`).
    /// - Returns: the frames encoded, or `nil` when `proceed` stopped it.
    /// - Throws: `SoundFileError` from a slice or from `finish()`; the intermediate is kept.
    public func encodeAll(proceed: (_ encoded: Int64, _ total: Int64) -> Bool = { _, _ in true })
        throws(SoundFileError) -> Int64?
    {
        let total = framesOnDisk
        do {
            while try encodeSlice(upTo: total) > 0 {
                if !proceed(framesEncoded, total) {
                    abandon()
                    return nil
                }
            }
            try finish()
        } catch {
            abandon()
            throw error
        }
        return total
    }

    // MARK: Private

    /// Where the encoded audio goes: a file libsndfile writes, or an MP4 through FFmpeg.
    private enum Target {
        case soundFile(SndFileHandle)
        case mp4(MP4AudioWriter)
    }

    /// `error` (from the final file's writer, or a caller that stopped the encode), saying
    /// where the recording is kept.
    public func keptInIntermediate(_ error: SoundFileError, detail: String) -> SoundFileError {
        var kept = error
        kept.path = path
        kept.detail = [detail, error.detail].compactMap { $0 }.joined(separator: ": ")
            + "; the recording is kept in \(intermediate)"
        return kept
    }

    private func write(frames: Int, to target: SndFileHandle) -> SndFileHandle.ShortWrite? {
        raw.withUnsafeBytes { buffer -> SndFileHandle.ShortWrite? in
            guard let base = buffer.baseAddress else { return nil }
            switch layout.sample {
            case .float32:
                return target.write(base, frames: frames, sampleFormat: .float32)
            case .int16:
                return target.write(base, frames: frames, sampleFormat: .int16)
            case .int32:
                return target.write(base, frames: frames, sampleFormat: .int32)
            case .int24:
                let samples = frames * layout.channels
                if widened.count < samples { widened = [Int32](repeating: 0, count: samples) }
                for index in 0..<samples {
                    let byte = base + index * 3
                    let low = UInt32(byte.load(as: UInt8.self))
                    let middle = UInt32(byte.load(fromByteOffset: 1, as: UInt8.self))
                    let high = UInt32(byte.load(fromByteOffset: 2, as: UInt8.self))
                    widened[index] = Int32(bitPattern: (low << 8) | (middle << 16) | (high << 24))
                }
                return widened.withUnsafeBytes { values -> SndFileHandle.ShortWrite? in
                    guard let start = values.baseAddress else { return nil }
                    return target.write(start, frames: frames, sampleFormat: .int32)
                }
            }
        }
    }

    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer?, count: Int, at offset: Int64)
        -> Int
    {
        guard let buffer else { return 0 }
        var done = 0
        while done < count {
            let result = pread(descriptor, buffer + done, count - done, off_t(offset) + off_t(done))
            if result < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if result == 0 { break }
            done += result
        }
        return done
    }

    static func length(of descriptor: Int32) -> Int64 {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return 0 }
        return Int64(status.st_size)
    }
}

/// Where the samples of a W64 file are and how they are laid out, from its header.
struct IntermediateLayout: Equatable {
    enum Sample: Equatable { case int16, int24, int32, float32 }

    var sample: Sample
    var channels: Int
    var sampleRate: Int
    /// Byte offset of the first sample.
    var dataOffset: Int64
    /// Bytes the data chunk declares, when its header was finalised (a closed writer); `nil`
    /// while it is being written or after a crash, when only the file's length tells.
    var declaredDataBytes: Int64?

    var bytesPerFrame: Int {
        channels * (sample == .int16 ? 2 : sample == .int24 ? 3 : 4)
    }

    /// Whole frames in a file of `length` bytes with this header.
    func frames(inFileOfLength length: Int64) -> Int64 {
        var bytes = max(0, length - dataOffset)
        if let declaredDataBytes { bytes = min(bytes, declaredDataBytes) }
        return bytes / Int64(bytesPerFrame)
    }

    /// Sony Wave64's GUIDs: `riff`, `wave`, `fmt `, `data`.
    private static let riff: [UInt8] = [
        0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00,
    ]
    private static let wave: [UInt8] = Array("wave".utf8) + guidTail
    private static let format: [UInt8] = Array("fmt ".utf8) + guidTail
    private static let data: [UInt8] = Array("data".utf8) + guidTail
    private static let guidTail: [UInt8] = [0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A]
    /// 16-byte GUID + 64-bit size, before every chunk's body.
    private static let chunkHeader = 24
    /// WAVE_FORMAT_PCM, WAVE_FORMAT_IEEE_FLOAT, WAVE_FORMAT_EXTENSIBLE.
    private static let (pcmTag, floatTag, extensibleTag): (UInt16, UInt16, UInt16) = (1, 3, 0xFFFE)

    /// Reads the header of the W64 file open at `descriptor`.
    static func read(descriptor: Int32, path: String) throws(SoundFileError) -> IntermediateLayout {
        var header = [UInt8](repeating: 0, count: 4096)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 40, Array(header[0..<16]) == riff, Array(header[24..<40]) == wave else {
            throw SoundFileError(kind: .corrupt, path: path, detail: "not a W64 intermediate (no riff/wave header)")
        }
        var offset = 40
        var layout: (Sample, Int, Int)?
        while offset + chunkHeader <= count {
            let guid = Array(header[offset..<offset + 16])
            let size = Int64(bitPattern: littleEndian(header, at: offset + 16, bytes: 8))
            let body = offset + chunkHeader
            if guid == format, body + 16 <= count {
                let tag = UInt16(littleEndian(header, at: body, bytes: 2))
                let channels = Int(littleEndian(header, at: body + 2, bytes: 2))
                let rate = Int(littleEndian(header, at: body + 4, bytes: 4))
                let bits = Int(littleEndian(header, at: body + 14, bytes: 2))
                var kind = tag
                if tag == extensibleTag, body + 26 <= count {
                    kind = UInt16(littleEndian(header, at: body + 24, bytes: 2))
                }
                let sample: Sample? =
                    switch (kind, bits) {
                    case (floatTag, 32): .float32
                    case (pcmTag, 16): .int16
                    case (pcmTag, 24): .int24
                    case (pcmTag, 32): .int32
                    default: nil
                    }
                guard let sample, channels > 0, rate > 0 else {
                    throw SoundFileError(
                        kind: .corrupt, path: path, detail: "the intermediate holds \(bits)-bit samples of format \(kind)")
                }
                layout = (sample, channels, rate)
            } else if guid == data {
                guard let (sample, channels, rate) = layout else { break }
                let declared = size - Int64(chunkHeader)
                return IntermediateLayout(
                    sample: sample, channels: channels, sampleRate: rate, dataOffset: Int64(body),
                    declaredDataBytes: declared > 0 ? declared : nil)
            }
            guard size >= Int64(chunkHeader), size < 1 << 20 else { break }
            // Chunks start on 8-byte boundaries.
            offset += (Int(size) + 7) & ~7
        }
        throw SoundFileError(kind: .corrupt, path: path, detail: "the intermediate's header has no fmt and data chunks")
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int, bytes count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<count).reversed() {
            value = value << 8 | UInt64(bytes[offset + index])
        }
        return value
    }
}
