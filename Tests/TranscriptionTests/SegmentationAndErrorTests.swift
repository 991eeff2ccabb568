import TestSupport
import Foundation
import SoundFiles
import Testing
@testable import Transcription

@Suite struct SegmentationTests {
    private static func tone(seconds: Double, amplitude: Double) -> [Int16] {
        (0..<Int(seconds * 16_000)).map { Int16(amplitude * 32767 * sin(2 * Double.pi * 300 * Double($0) / 16_000)) }
    }

    /// Speech, a second's pause, speech: one cut, inside the pause.
    @Test func cutsInAPause() {
        var segmenter = PauseSegmenter()
        let stream = Self.tone(seconds: 2, amplitude: 0.3) + Self.tone(seconds: 1, amplitude: 0.001) + Self.tone(seconds: 2, amplitude: 0.3)
        // Fed in odd-sized pieces: a frame may straddle two calls.
        var cuts: [Int] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 777)
            let piece = Array(stream[offset..<end])
            cuts += piece.withUnsafeBufferPointer { segmenter.boundaries(in: $0) }.map { $0 + offset }
            offset = end
        }
        #expect(cuts.count == 1, "\(cuts)")
        if let cut = cuts.first {
            #expect(cut > 32_000 && cut < 48_000, "cut at \(cut)")
        }
    }

    /// Nobody pauses: utterances still end, at most 30 s apart, so memory stays bounded.
    @Test func boundsAnUtteranceWithoutPauses() {
        var segmenter = PauseSegmenter()
        let stream = Self.tone(seconds: 70, amplitude: 0.3)
        let cuts = stream.withUnsafeBufferPointer { segmenter.boundaries(in: $0) }
        #expect(cuts == [480_000, 960_000], "\(cuts)")
    }
}

@Suite struct TranscriptionErrorTests {
    @Test func aMissingModelNamesTheDebianPackage() throws {
        let folder = try TemporaryDirectory(prefix: "transcription")
        for directory in [folder.path + "/nowhere", folder.path] {
            do {
                _ = try SpeechModel(directory: directory)
                Issue.record("no error for \(directory)")
            } catch {
                guard case .modelMissing = error else { throw error }
                #expect(error.description.contains("pocketsphinx-en-us"))
                #expect(error.description.contains(directory))
            }
        }
    }

    @Test func missingAndEmptyFilesAreSoundErrors() throws {
        let folder = try TemporaryDirectory(prefix: "transcription")
        let empty = folder.path + "/empty.wav"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for path in [folder.path + "/missing.wav", empty] {
            do {
                _ = try LibriVoxClips.transcribe(path)
                Issue.record("no error for \(path)")
            } catch let error as TranscriptionError {
                guard case .sound(let sound) = error else { throw error }
                #expect(sound.path == path)
            }
        }
    }

    @Test func stoppingAbandonsTheWork() throws {
        let transcriber = try #require(LibriVoxClips.transcriber)
        var asked = 0
        LibriVoxClips.lock.lock()
        defer { LibriVoxClips.lock.unlock() }
        #expect(throws: TranscriptionError.cancelled) {
            try transcriber.transcribe(path: LibriVoxClips.path(LibriVoxClips.ids[0]), shouldStop: {
                asked += 1
                return asked > 3
            })
        }
        // The decoder is usable afterwards.
        let result = try transcriber.transcribe(path: LibriVoxClips.path(LibriVoxClips.ids[1]))
        #expect(result.words.count >= 5)
    }
}
