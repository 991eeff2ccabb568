import Foundation
import SoundFiles

/// Writes a sine of `frequency` at −6 dBFS into every channel of a new file.
func writeTone(to path: String, format: FileFormat = .wav, sampleRate: Int, channels: Int, seconds: Double, frequency: Double) throws {
    let settings = RecordingSettings(format: format, sampleRate: sampleRate, channels: channels)
    let writer = try SoundFileWriter(path: path, settings: settings, metadata: SoundFileMetadata())
    let frames = Int(seconds * Double(sampleRate))
    var samples = [Float](repeating: 0, count: frames * channels)
    for frame in 0..<frames {
        let value = 0.5 * Float(sin(2 * Double.pi * frequency * Double(frame) / Double(sampleRate)))
        for channel in 0..<channels { samples[frame * channels + channel] = value }
    }
    try samples.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        try writer.write(base, frames: frames, sampleFormat: .float32)
    }
    try writer.close()
}
