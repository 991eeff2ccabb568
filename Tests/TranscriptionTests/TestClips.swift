import Foundation
import SoundFiles
@testable import Transcription

/// pocketsphinx-testdata's LibriVox clips: 16 kHz mono read speech with a reference transcription.
enum LibriVoxClips {
    static let folder = "/usr/share/pocketsphinx/test/data/librivox"
    static let ids = [
        "sense_and_sensibility_01_austen_64kb-0870", "sense_and_sensibility_01_austen_64kb-0880",
        "sense_and_sensibility_01_austen_64kb-0890", "sense_and_sensibility_01_austen_64kb-0920",
        "sense_and_sensibility_01_austen_64kb-0930",
    ]

    static func path(_ id: String) -> String { folder + "/" + id + ".wav" }

    static func references() throws -> [String: [String]] {
        SphinxTranscriptionFile.parse(try String(contentsOfFile: folder + "/transcription", encoding: .utf8))
    }

    /// One transcriber for the whole test process: loading the model takes a while.
    nonisolated(unsafe) static let transcriber: Transcriber? = (try? SpeechModel()).map(Transcriber.init(model:))
    static let lock = NSLock()

    static func transcribe(_ path: String) throws -> Transcriber.Result {
        guard let transcriber else { throw TranscriptionError.modelMissing(directory: SpeechModel.defaultDirectory, missingPath: "?") }
        lock.lock()
        defer { lock.unlock() }
        return try transcriber.transcribe(path: path)
    }
}

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

/// A fresh temporary folder, removed afterwards.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("transcription-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
