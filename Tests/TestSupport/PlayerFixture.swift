import Dispatch
import Foundation
import Glibc
import SoundFiles
import Synchronization
import Testing

import Audio

/// Test files for the player: counter signals, any format, and the played output.
public struct PlayerFixture {
    public let devices: ALSATestDevices

    public init() throws {
        // The capture side is unused; keep its file small.
        devices = try ALSATestDevices(frames: 16)
    }

    public func remove() { devices.remove() }

    public func path(_ name: String) -> String {
        devices.directory.appendingPathComponent(name).path
    }

    /// A counter in every frame: left is the frame number's low 16 bits, right its
    /// high 16 bits, so every frame of a file under 2³² frames is unique and a repeated
    /// or skipped frame shows exactly where.
    public static func counterSamples(frames: Int) -> [Int16] {
        var samples = [Int16](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            samples[2 * frame] = Int16(truncatingIfNeeded: frame)
            samples[2 * frame + 1] = Int16(truncatingIfNeeded: frame >> 16)
        }
        return samples
    }

    /// A 16-bit stereo 48 kHz file of `frames` counter frames.
    public func writeCounter(_ name: String, frames: Int, format: FileFormat = .wav, encoding: Encoding? = nil) throws -> String {
        try write(name, samples: Self.counterSamples(frames: frames), format: format, encoding: encoding)
    }

    /// A stereo 48 kHz file from interleaved Int16 samples.
    public func write(_ name: String, samples: [Int16], format: FileFormat, encoding: Encoding? = nil) throws -> String {
        let file = path(name)
        let writer = try SoundFileWriter(
            path: file, settings: RecordingSettings(format: format, encoding: encoding, sampleRate: 48_000, channels: 2))
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: samples.count / 2, sampleFormat: .int16)
        }
        try writer.close()
        return file
    }

    /// A stereo 48 kHz file of a 440 Hz sine (left) and 1 kHz sine (right) at `peak` of full scale, as floats.
    public func writeSines(_ name: String, seconds: Double, peak: Float, format: FileFormat, encoding: Encoding? = nil) throws -> String {
        let file = path(name)
        let frames = Int(seconds * 48_000)
        var samples = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let time = Double(frame) / 48_000
            samples[2 * frame] = peak * Float(sin(2 * Double.pi * 440 * time))
            samples[2 * frame + 1] = peak * Float(sin(2 * Double.pi * 1000 * time))
        }
        let writer = try SoundFileWriter(
            path: file, settings: RecordingSettings(format: format, encoding: encoding, sampleRate: 48_000, channels: 2))
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .float32)
        }
        try writer.close()
        return file
    }

    /// What the playback device wrote: S16_LE 48 kHz stereo samples.
    public func played() throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: devices.playbackFile))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// A player on the file-backed test device.
    public func player(_ file: String, adjustable: Bool = false, events: PlayerEvents = .init()) throws -> Player {
        try Player(
            url: file, device: ALSATestDevices.playback, configFile: devices.configFile, adjustable: adjustable,
            eventQueue: DispatchQueue(label: "player-test-events"), events: events, operations: nil)
    }

    /// A player on the file-backed test device through `operations` (the ALSA seam, `package`
    /// in `Audio`).
    package func player(
        _ file: String, adjustable: Bool = false, operations: any PCMOperations, events: PlayerEvents = .init()
    ) throws -> Player {
        try Player(
            url: file, device: ALSATestDevices.playback, configFile: devices.configFile, adjustable: adjustable,
            eventQueue: DispatchQueue(label: "player-test-events"), events: events, operations: operations)
    }
}

/// Records a player's events and lets a test wait for the end.
public final class PlayerEventLog: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let log = Mutex<(finishes: [Bool], errors: [PlayerError])>(([], []))

    public init() {}

    public var events: PlayerEvents {
        PlayerEvents(
            didFinishPlaying: { [self] successfully in
                log.withLock { $0.finishes.append(successfully) }
                finished.signal()
            },
            decodeErrorDidOccur: { [self] error in log.withLock { $0.errors.append(error) } })
    }

    /// Waits for `didFinishPlaying`; false on timeout.
    public func waitForFinish(seconds: Double = 20) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    public var finishes: [Bool] { log.withLock { $0.finishes } }
    public var errors: [PlayerError] { log.withLock { $0.errors } }
}

/// The real alsa-lib calls, with every `snd_pcm_writei` slowed to `microseconds`, so
/// that an unpaced file device plays slowly enough for a test to pause and seek mid-way.
public final class SlowWritePCMOperations: PCMOperations {
    private let real = SystemPCMOperations()
    private let microseconds: UInt32

    public init(microsecondsPerWrite: UInt32) {
        self.microseconds = microsecondsPerWrite
    }

    public func writeInterleaved(_ pcm: OpaquePointer, _ buffer: UnsafeRawPointer, _ frames: Int) -> Int {
        usleep(microseconds)
        return real.writeInterleaved(pcm, buffer, frames)
    }
}

/// A device that holds frames before playing them, as real hardware and sound servers
/// do: written frames wait in a queue of `holding` frames (reported by `snd_pcm_delay`)
/// and count as played only when pushed out by later writes or by a drain; a drop
/// discards them. The real file device still sees every call, so its state is real;
/// `played` is what a listener would have heard. Interleaved S16 stereo only.
public final class QueueingPCMOperations: PCMOperations {
    private struct Queue {
        var pending: [Int16] = []
        var played: [Int16] = []
    }

    private let real = SystemPCMOperations()
    private let holding: Int
    private let microsecondsPerWrite: UInt32
    private let queue = Mutex(Queue())

    public init(holdingFrames: Int, microsecondsPerWrite: UInt32) {
        self.holding = holdingFrames
        self.microsecondsPerWrite = microsecondsPerWrite
    }

    /// What has been heard so far.
    public var played: [Int16] { queue.withLock { $0.played } }

    public func writeInterleaved(_ pcm: OpaquePointer, _ buffer: UnsafeRawPointer, _ frames: Int) -> Int {
        usleep(microsecondsPerWrite)
        let result = real.writeInterleaved(pcm, buffer, frames)
        guard result > 0 else { return result }
        let samples = UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: Int16.self), count: result * 2)
        queue.withLock { queue in
            queue.pending.append(contentsOf: samples)
            let excess = queue.pending.count - holding * 2
            if excess > 0 {
                queue.played.append(contentsOf: queue.pending.prefix(excess))
                queue.pending.removeFirst(excess)
            }
        }
        return result
    }

    public func delay(_ pcm: OpaquePointer, _ frames: inout Int) -> Int32 {
        frames = queue.withLock { $0.pending.count / 2 }
        return 0
    }

    public func drop(_ pcm: OpaquePointer) -> Int32 {
        queue.withLock { $0.pending.removeAll() }
        return real.drop(pcm)
    }

    public func drain(_ pcm: OpaquePointer) -> Int32 {
        queue.withLock { queue in
            queue.played.append(contentsOf: queue.pending)
            queue.pending.removeAll()
        }
        return real.drain(pcm)
    }
}
