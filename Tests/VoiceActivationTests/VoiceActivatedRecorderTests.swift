import TestSupport
@testable import VoiceActivation
import Dispatch
import Foundation
import MemoLibrary
import SoundFiles
import Synchronization
import Testing

@testable import Audio

/// The recorder on a real engine: an unpaced file source with tone bursts between noise,
/// so runs are fast and exact. Every kept take's file must be the source's frames from
/// its start to its end, bit for bit. The level alone decides (`listensForSpeech: false`): tone bursts are not speech.
@Suite struct VoiceActivatedRecorderTests {
    static let rate = 48_000
    static let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: rate, channels: 1)

    /// Noise at −60 dBFS RMS with 1 kHz bursts at −12 dBFS: (start, length) in seconds.
    static func makeSource(at path: String, seconds: Double, bursts: [(Double, Double)]) throws -> [Int16] {
        var noise = NoiseGenerator(rmsDBFS: -60)
        let count = Int(seconds * Double(rate))
        var samples = (0..<count).map { _ in noise.next() }
        for (start, length) in bursts {
            let first = Int(start * Double(rate))
            for index in first..<min(count, first + Int(length * Double(rate))) {
                samples[index] += 0.25 * Float(sin(2 * Double.pi * 1000 * Double(index) / Double(rate)))
            }
        }
        let writer = try SoundFileWriter(path: path, settings: settings)
        try samples.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            try writer.write(base, frames: count, sampleFormat: .float32)
        }
        try writer.close()
        return try TestSignals.readInt16(path).samples
    }

    /// Runs the source through a voice-activated recorder to its end; returns every finished take.
    static func record(
        _ path: String, folder: URL, settings: VoiceActivationSettings, measuresStatistics: Bool = false
    ) throws -> [FinishedTake] {
        let source = try FileSource(path: path, sampleFormat: .int16, paced: false)
        let engine = CaptureEngine(source: source)
        let finished = Mutex<[FinishedTake]>([])
        let recorder = try VoiceActivatedRecorder(
            settings: settings, recordingSettings: Self.settings, engine: engine, measuresStatistics: measuresStatistics,
            events: VoiceActivationEvents(
                destination: { info in
                    TakeDestination(url: folder.appendingPathComponent("take\(info.number).wav").path)
                },
                takeDidFinish: { take in finished.withLock { $0.append(take) } }))
        engine.start()
        try wait(for: "the engine to reach the end of \(path)", polling: .milliseconds(10)) { engine.hasEnded }
        recorder.stop()
        engine.stop()
        #expect(recorder.hasFinished)
        #expect(recorder.droppedFrames == 0)
        return finished.withLock { $0 }
    }

    @Test func eachUtteranceIsItsOwnFileExactToTheFrameAndAClickLeavesNone() throws {
        let directory = try TemporaryDirectory(prefix: "vox")
        let folder = directory.url
        let path = folder.appendingPathComponent("source.wav").path
        let source = try Self.makeSource(
            at: path, seconds: 14, bursts: [(1, 1.5), (5.5, 0.2), (8.7, 2)])
        let takes = try Self.record(path, folder: folder, settings: VoiceActivationSettings(hangTime: 2, listensForSpeech: false))
        #expect(takes.count == 3)
        let kept = takes.filter(\.kept)
        #expect(kept.count == 2)
        #expect(takes.map(\.info.number) == [0, 1, 2])
        for (take, onset) in zip(kept, [1.0, 8.7]) {
            let onsetFrame = Int(onset * Double(Self.rate))
            #expect(take.info.startFrame <= onsetFrame)
            #expect(take.info.startFrame >= onsetFrame - 14_400 - 960)
            let url = try #require(take.destination?.url)
            let recorded = try TestSignals.readInt16(url).samples
            #expect(recorded.count == take.endFrame - take.info.startFrame)
            #expect(Array(source[take.info.startFrame..<take.endFrame]) == recorded)
        }
        // The click was discarded: the owner removes its file (here it was never needed).
        let click = takes[1]
        #expect(!click.kept)
    }

    /// The owner may block `takeDidFinish` for a whole take (the replay): the detector goes on
    /// meanwhile, so the input is analysed to its end, a click after the take is judged and
    /// passed over without a file, and the capture never waits for the blocked owner.
    @Test func theDetectorGoesOnWhileTheOwnerHoldsAFinishedTake() throws {
        let directory = try TemporaryDirectory(prefix: "vox")
        let folder = directory.url
        let path = folder.appendingPathComponent("source.wav").path
        // 16 s: past the history's 8 s of backlog after the first take's end (about 3 s).
        _ = try Self.makeSource(at: path, seconds: 16, bursts: [(1, 1.5), (6, 0.2)])
        let engine = CaptureEngine(source: try FileSource(path: path, sampleFormat: .int16, paced: false))
        let finished = Mutex<[FinishedTake]>([])
        let release = DispatchSemaphore(value: 0)
        let recorder = try VoiceActivatedRecorder(
            settings: VoiceActivationSettings(hangTime: 0.5, listensForSpeech: false), recordingSettings: Self.settings,
            engine: engine,
            events: VoiceActivationEvents(
                destination: { info in TakeDestination(url: folder.appendingPathComponent("take\(info.number).wav").path) },
                takeDidFinish: { take in
                    finished.withLock { $0.append(take) }
                    if take.info.number == 0 { release.wait() }
                }))
        engine.start()
        defer { release.signal(); recorder.stop(); engine.stop() }
        try wait(for: "the first take to be handed over", polling: .milliseconds(10)) { finished.withLock { $0.count } == 1 }
        try wait(for: "the input's end while the first take is held", polling: .milliseconds(10)) { engine.hasEnded }
        try wait(for: "the analysis to reach the end while the first take is held", polling: .milliseconds(10)) {
            recorder.status.phase == .armed && recorder.inputError == nil && recorder.status.takeFrames == 0
                && engine.hasEnded
        }
        #expect(finished.withLock { $0.count } == 1, "the click waits its turn behind the held take")
        release.signal()
        try wait(for: "every take reported", polling: .milliseconds(10)) { recorder.hasFinished }
        let takes = finished.withLock { $0 }
        #expect(takes.map(\.info.number) == [0, 1], "\(takes.map { ($0.info.startFrame, $0.endFrame, $0.kept) })")
        #expect(takes.map(\.kept) == [true, false], "the take kept, the click not")
        #expect(takes.last?.destination == nil, "the click never had a file")
        #expect(recorder.droppedFrames == 0)
    }

    @Test func eachTakeIsMeasuredAsItsFileIsWritten() throws {
        let directory = try TemporaryDirectory(prefix: "vox")
        let folder = directory.url
        let path = folder.appendingPathComponent("source.wav").path
        _ = try Self.makeSource(at: path, seconds: 14, bursts: [(1, 1.5), (8.7, 2)])
        let takes = try Self.record(path, folder: folder, settings: VoiceActivationSettings(hangTime: 2, listensForSpeech: false), measuresStatistics: true)
        #expect(takes.filter(\.kept).count == 2)
        for take in takes where take.kept {
            let measured = try #require(take.statistics)
            let file = try FileAnalysis.measure(path: try #require(take.destination?.url)).statistics
            #expect(measured.frames == take.framesWritten)
            #expect(measured.frames == file.frames)
            #expect(abs(measured.samplePeakDB - file.samplePeakDB) <= 0.05)
            #expect(abs((measured.truePeakDBTP ?? 0) - (file.truePeakDBTP ?? 99)) <= 0.05)
            let loudness = try #require(measured.loudnessLUFS)
            #expect(abs(loudness - (try #require(file.loudnessLUFS))) <= 0.05)
            #expect(measured.clipCount == file.clipCount)
        }
        let unmeasured = try Self.record(path, folder: folder, settings: VoiceActivationSettings(hangTime: 2, listensForSpeech: false))
        #expect(unmeasured.allSatisfy { $0.statistics == nil }, "only when asked")
    }

    @Test func longSoundIsSplitAtTheMaximumWithNoFrameLostOrRepeated() throws {
        let directory = try TemporaryDirectory(prefix: "vox")
        let folder = directory.url
        let path = folder.appendingPathComponent("source.wav").path
        let source = try Self.makeSource(at: path, seconds: 8, bursts: [(0.5, 6)])
        let takes = try Self.record(path, folder: folder, settings: VoiceActivationSettings(hangTime: 2, maximumTake: 2.5, listensForSpeech: false))
        let kept = takes.filter(\.kept)
        #expect(kept.count == 3)
        for (earlier, later) in zip(kept, kept.dropFirst()) {
            #expect(earlier.endFrame == later.info.startFrame)
            #expect(earlier.endFrame - earlier.info.startFrame == 120_000)
        }
        var joined: [Int16] = []
        for take in kept {
            joined += try TestSignals.readInt16(try #require(take.destination?.url)).samples
        }
        let first = try #require(kept.first).info.startFrame
        let last = try #require(kept.last).endFrame
        #expect(joined == Array(source[first..<last]))
    }

    /// Continuous speech (espeak-ng, about 9 s, pauses between words far shorter than
    /// the hang time) is split at the maximum take, each take meeting the next exactly.
    @Test func continuousSpeechLongerThanTheMaximumIsSplit() throws {
        let directory = try TemporaryDirectory(prefix: "vox")
        let folder = directory.url
        let spoken = folder.appendingPathComponent("spoken.wav").path
        let path = folder.appendingPathComponent("speech.wav").path
        let text = "Voice memos are easier to keep when the recorder starts by itself and stops after "
            + "a pause, so the whole thought stays in one place and nothing is lost at the start."
        let made = try Tool.run("/bin/sh", ["-c",
            "espeak-ng -s 150 -w '\(spoken)' '\(text)' && sox '\(spoken)' -r 48000 -c 1 -b 16 '\(path)' pad 0.5 2 gain -3"]).status
        #expect(made == 0, "espeak-ng and sox make the speech file")
        let source = try TestSignals.readInt16(path).samples
        let takes = try Self.record(path, folder: folder, settings: VoiceActivationSettings(hangTime: 2, maximumTake: 2.0, listensForSpeech: false))
        let kept = takes.filter(\.kept)
        #expect(kept.count >= 3, "\(Double(source.count) / 48_000) s of speech in 2 s takes: \(kept.count)")
        for (earlier, later) in zip(kept, kept.dropFirst()) {
            #expect(earlier.endFrame == later.info.startFrame, "no frame lost or repeated at a split")
        }
        var joined: [Int16] = []
        for take in kept {
            joined += try TestSignals.readInt16(try #require(take.destination?.url)).samples
        }
        let first = try #require(kept.first).info.startFrame
        let last = try #require(kept.last).endFrame
        #expect(joined == Array(source[first..<last]))
    }

    @Test func settingsThatDisagreeWithTheEngineAreRefused() throws {
        let engine = CaptureEngine(source: try ToneSource(
            frequency: 440, peakDBFS: -12,
            format: StreamFormat(sampleRate: 44_100, channels: 1, sampleFormat: .int16), paced: false))
        #expect(throws: RecorderError.self) {
            _ = try VoiceActivatedRecorder(
                settings: VoiceActivationSettings(hangTime: 2, listensForSpeech: false), recordingSettings: Self.settings, engine: engine,
                events: VoiceActivationEvents(destination: { _ in TakeDestination(url: "/nonexistent") }, takeDidFinish: { _ in }))
        }
    }
}
