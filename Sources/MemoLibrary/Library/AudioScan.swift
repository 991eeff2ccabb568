import Metering
import SoundFiles

/// What decoding a whole audio file finds: how many frames it really holds and its highest peak.
///
/// For the memos whose recorder did not say: recovered after a crash, adopted from the folder,
/// re-read after their file changed. A recorder stores the peak it metered; these would otherwise
/// show −160 dB (unknown). Decoding costs time in proportion to the audio, so it is done only
/// for those files, never for every file at every start-up.
struct AudioScan {
    /// Frames decoded (the header's count may be stale or unknown after a crash).
    var frames: Int64
    /// The highest sample peak over all channels, in dBFS (−160 for silence).
    var peakDB: Double

    /// How many frames are decoded at a time.
    static let chunkFrames = 8192

    /// Decodes the file at `path` through `SoundFileReader` and meters it with a `LevelMeter`;
    /// `nil` when it cannot be read to the end or has a channel count the meter does not take.
    init?(path: String) {
        guard let reader = try? SoundFileReader(path: path) else { return nil }
        defer { reader.close() }
        let channels = reader.info.channels
        guard (1...LevelMeter.maximumChannelCount).contains(channels) else { return nil }
        var meter = LevelMeter(channels: channels)
        var buffer = [Float](repeating: 0, count: Self.chunkFrames * channels)
        var total: Int64 = 0
        while true {
            let result = buffer.withUnsafeMutableBufferPointer { samples -> Result<Int, SoundFileError> in
                guard let base = samples.baseAddress else { return .success(0) }
                let read = Result { () throws(SoundFileError) in
                    try reader.read(into: base, frames: Self.chunkFrames, as: .float32)
                }
                if case .success(let count) = read {
                    meter.consume(UnsafeBufferPointer(rebasing: samples[0..<(count * channels)]))
                }
                return read
            }
            guard case .success(let count) = result else { return nil }
            if count == 0 { break }
            total += Int64(count)
        }
        meter.updateMeters()
        frames = total
        peakDB = Double((0..<channels).map { meter.peakPower(forChannel: $0) }.max() ?? -160)
    }
}
