import Foundation
import Glibc
import SoundFiles
import Synchronization
import Testing

import Audio

/// A private directory with a deterministic noise file and an ALSA configuration
/// (from `Resources/alsa/test-devices.conf.in`) defining file-fed test devices.
///
/// Each test makes its own, so tests running in parallel never share files, and
/// the configuration is loaded per PCM (`configFile:`), never through the
/// process-wide `ALSA_CONFIG_PATH`.
public struct ALSATestDevices {
    public static let capture = "voicememo_capture"
    public static let captureRaw = "voicememo_capture_raw"
    public static let playback = "voicememo_playback"
    public static let linearOnly = "voicememo_linear_only"
    public static let stereo48k = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)

    public let directory: URL
    public let configFile: String
    public let captureFile: String
    public let playbackFile: String
    /// The capture signal: interleaved S16 stereo samples, as stored in `captureFile`.
    public let samples: [Int16]

    /// - Parameter frames: Frames of noise in the capture file; keep it longer than
    ///   any read, because the file plugin repeats stale data past the end.
    public init(frames: Int = 200_000, seed: UInt64 = 0x5EED) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicememo-alsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        captureFile = directory.appendingPathComponent("in.raw").path
        playbackFile = directory.appendingPathComponent("out.raw").path
        configFile = directory.appendingPathComponent("devices.conf").path

        var generator = SplitMix64(seed: seed)
        samples = (0..<frames * 2).map { _ in Int16(truncatingIfNeeded: generator.next()) }
        try samples.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: captureFile))

        let template = try String(contentsOf: Self.templateURL, encoding: .utf8)
        let config = template
            .replacingOccurrences(of: "@CAPTURE_FILE@", with: captureFile)
            .replacingOccurrences(of: "@PLAYBACK_FILE@", with: playbackFile)
        try config.write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    public static var templateURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/alsa/test-devices.conf.in")
    }

    /// The capture file's first `frames` frames as bytes.
    public func captureBytes(frames: Int) -> [UInt8] {
        samples.prefix(frames * 2).withUnsafeBytes { Array($0) }
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}


/// Reads `frames` frames from `source` in chunks of `chunk`, returning the bytes and
/// the reads' results.
public func captureAll(
    _ source: some CaptureSource, frames: Int, chunk: Int = 1024
) throws(CaptureError) -> (bytes: [UInt8], reads: [CaptureRead]) {
    let bytesPerFrame = source.format.bytesPerFrame
    var bytes: [UInt8] = []
    bytes.reserveCapacity(frames * bytesPerFrame)
    var reads: [CaptureRead] = []
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk * bytesPerFrame, alignment: 16)
    defer { buffer.deallocate() }
    var remaining = frames
    while remaining > 0 {
        let wanted = min(chunk, remaining)
        let read = try source.read(into: buffer, frames: wanted)
        reads.append(read)
        if read.endOfStream { break }
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: read.frames * bytesPerFrame))
        remaining -= read.frames
    }
    return (bytes, reads)
}

/// Serialises redirections of file descriptor 2 (process-wide).
private let standardErrorLock = Mutex(())

/// Runs `body` with file descriptor 2 redirected to a temporary file and returns
/// what was written there; the text is then passed on to the real stderr so
/// nothing another test printed meanwhile is lost.
public func capturingStandardError<T>(_ body: () throws -> T) rethrows -> (result: T, standardError: String) {
    let captured = try standardErrorLock.withLock { _ in
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicememo-stderr-\(UUID().uuidString)").path
        let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        let saved = dup(2)
        fflush(nil)
        dup2(file, 2)
        defer {
            fflush(nil)
            dup2(saved, 2)
            Glibc.close(saved)
            Glibc.close(file)
            unlink(path)
        }
        let result = try body()
        fflush(nil)
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return (result, text)
    }
    if !captured.1.isEmpty {
        FileHandle.standardError.write(Data(captured.1.utf8))
    }
    return captured
}

/// Where two sequences first differ, described briefly ("" when equal), so a
/// failed comparison of a million samples prints one line, not the arrays.
public func firstDifference<T: Equatable>(_ actual: [T], _ expected: [T]) -> String {
    if let index = (0..<min(actual.count, expected.count)).first(where: { actual[$0] != expected[$0] }) {
        let window = index..<min(index + 4, actual.count, expected.count)
        return "first difference at element \(index) of \(actual.count): got \(Array(actual[window])), expected \(Array(expected[window]))"
    }
    return actual.count == expected.count ? "" : "lengths differ: got \(actual.count), expected \(expected.count)"
}

/// Checks that `captured` (already mapped back to 16-bit values) is made of runs
/// copied exactly from `source`, each starting on a frame boundary, and returns
/// the number of runs (nil if some sample matches nowhere).
///
/// alsa-lib 1.2.8's `file` plugin skips input when `plug` converts (it is then
/// driven through mmap and reads its infile per transfer of the layer above: arecord
/// shows the same gaps), so a converted capture is a sequence of exact excerpts
/// rather than one prefix. The values must still convert exactly.
public func runsCopied(from source: [Int16], into captured: [Int16], channels: Int) -> Int? {
    var firstPositions: [Int64: Int] = [:]
    let keyLength = 4
    func key(_ values: ArraySlice<Int16>) -> Int64 {
        values.reduce(Int64(0)) { ($0 << 16) | Int64(UInt16(bitPattern: $1)) }
    }
    var index = 0
    while index + keyLength <= source.count {
        let candidate = key(source[index..<index + keyLength])
        if firstPositions[candidate] == nil { firstPositions[candidate] = index }
        index += channels
    }
    var runs = 0
    var position = 0
    while position < captured.count {
        let end = min(position + keyLength, captured.count)
        guard end - position == keyLength, var sourceIndex = firstPositions[key(captured[position..<end])] else {
            return nil
        }
        runs += 1
        while position < captured.count, sourceIndex < source.count, captured[position] == source[sourceIndex] {
            position += 1
            sourceIndex += 1
        }
        if position % channels != 0 { return nil }
    }
    return runs
}
