import Foundation
import SoundFiles

/// What the tests of lossy recordings check: the formats encoded while they record, the
/// codecs' padding, a file's size and decoded length.
public enum EncodedRecording {
    public static let lossy: [FileFormat] = [.mp3, .ogg]

    /// The codec's padding: what the decoded length may differ from the frames recorded
    /// (LAME's frame, Vorbis's largest block), as in SoundFilesTests' round trips.
    public static func tolerance(_ format: FileFormat) -> Int {
        format == .mp3 ? 1152 : 2048
    }

    /// Waits for `condition`, polling every 20 ms, for at most `seconds`.
    public static func wait(atMost seconds: Double, for condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    public static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }

    public static func decodedFrames(_ path: String, channels: Int) throws -> Int {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var total = 0
        var buffer = [Float](repeating: 0, count: 4096 * channels)
        while true {
            let read = try buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 4096, as: .float32)
            }
            if read == 0 { return total }
            total += read
        }
    }
}
