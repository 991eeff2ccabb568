import Foundation
import SoundFiles
import Transcription

/// pocketsphinx-testdata's LibriVox clips: 16 kHz mono read speech with a reference transcription.
public enum LibriVoxClips {
    public static let folder = "/usr/share/pocketsphinx/test/data/librivox"
    public static let ids = [
        "sense_and_sensibility_01_austen_64kb-0870", "sense_and_sensibility_01_austen_64kb-0880",
        "sense_and_sensibility_01_austen_64kb-0890", "sense_and_sensibility_01_austen_64kb-0920",
        "sense_and_sensibility_01_austen_64kb-0930",
    ]

    public static func path(_ id: String) -> String { folder + "/" + id + ".wav" }

    public static func references() throws -> [String: [String]] {
        SphinxTranscriptionFile.parse(try String(contentsOfFile: folder + "/transcription", encoding: .utf8))
    }

    /// One transcriber for the whole test process: loading the model takes a while.
    nonisolated(unsafe) public static let transcriber: Transcriber? = (try? SpeechModel()).map(Transcriber.init(model:))
    public static let lock = NSLock()

    public static func transcribe(_ path: String) throws -> Transcriber.Result {
        guard let transcriber else { throw TranscriptionError.modelMissing(directory: SpeechModel.defaultDirectory, missingPath: "?") }
        lock.lock()
        defer { lock.unlock() }
        return try transcriber.transcribe(path: path)
    }
}
