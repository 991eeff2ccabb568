import Audio
import Dispatch
import Foundation
import SoundFiles

/// How long `Recorder.stop()` takes after a long recording from an unpaced ALSA file device
/// (48 kHz stereo S16_LE noise, Resources/alsa/test-devices.conf.in), for a WAV, an MP3 and an
/// Ogg Vorbis memo measuring its statistics (`measuresStatistics`, as the app's and `record`'s
/// memos do).
///
/// The device delivers as fast as it is read, so the recording runs far faster than real time
/// (about an hour in tens of seconds): whatever the writer, the statistics or the encoder have
/// not caught up with when `stop()` is called is the backlog that `stop()` waits for. The
/// figure is the wall time of `stop()` alone, from the call to its return (the file complete);
/// "encoded at stop" is `Recorder.finishingProgress` just before the call (MP3, Vorbis). Then
/// the same for MP3 and Vorbis from a tone paced to real time, as a microphone delivers
/// (`VOICEMEMO_BENCH_STOP_LIVE_SECONDS`, 60 s by default).
struct StopBenchmark {
    let seconds: Int

    /// An hour, or `VOICEMEMO_BENCH_STOP_SECONDS` (a shorter run to try the benchmark).
    static func secondsFromEnvironment() -> Int {
        ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_STOP_SECONDS"].flatMap { Int($0) } ?? 3600
    }

    func run() {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-stop-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let input = work.appendingPathComponent("input.raw").path
        let config = work.appendingPathComponent("devices.conf").path
        do {
            try Self.writeNoise(to: input, frames: (seconds + 5) * 48_000)
            try RecordBenchmark.writeConfig(to: config, captureFile: input, work: work.path)
        } catch {
            printToStandardError("voicememo-bench stop: cannot prepare the input: \(error)")
            exit(1)
        }
        print("stop: Recorder.stop() after \(seconds) s of 48 kHz stereo from an unpaced ALSA file device, statistics measured")
        print("  " + "format".padding(to: 14) + "recording s".leftPadding(to: 12) + "× real time".leftPadding(to: 13)
            + "encoded at stop".leftPadding(to: 17) + "stop s".leftPadding(to: 9) + "file frames".leftPadding(to: 14))
        let unpaced = InputSource.alsa(device: "voicememo_capture", configFile: config)
        for format in [FileFormat.wav, .mp3, .ogg] {
            measure(format, from: unpaced, paced: true, seconds: seconds, in: work)
        }
        // A live input: the same, from a tone paced to real time (a microphone's pace).
        let live = Self.liveSeconds()
        print("stop: Recorder.stop() after \(live) s of a 48 kHz stereo tone paced to real time (a live input)")
        for format in [FileFormat.mp3, .ogg] {
            measure(format, from: .tone(frequency: 440, peakDBFS: -12), paced: true, seconds: live, in: work)
        }
    }

    /// `VOICEMEMO_BENCH_STOP_LIVE_SECONDS`, else 60.
    static func liveSeconds() -> Int {
        ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_STOP_LIVE_SECONDS"].flatMap { Int($0) } ?? 60
    }

    private func measure(_ format: FileFormat, from input: InputSource, paced: Bool, seconds: Int, in work: URL) {
        let url = work.appendingPathComponent("memo.\(format.rawValue)").path
        let queue = DispatchQueue(label: "voicememo-bench.stop")
        let settings = RecordingSettings(format: format, sampleRate: 48_000, channels: 2)
        let recorder: Recorder
        do {
            recorder = try Recorder(
                url: url, settings: settings, input: input, paced: paced, measuresStatistics: true, eventQueue: queue)
            try recorder.record()
        } catch {
            printToStandardError("voicememo-bench stop: \(format.rawValue): \(error)")
            exit(1)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let target = seconds * 48_000
        while recorder.recordedFrames < target, !recorder.hasFinished {
            usleep(20_000)
        }
        let recording = clock.now - started
        let encodedAtStop = recorder.finishingProgress.map { fixed(100 * $0, decimals: 1) + " %" } ?? "—"
        let stopping = clock.now
        recorder.stop()
        let stopped = clock.now - stopping
        let frames = (try? SoundFileReader(path: url).info.frames) ?? -1
        let recordingSeconds = Self.seconds(recording)
        print("  " + "\(format.rawValue)".padding(to: 14) + fixed(recordingSeconds, decimals: 1).leftPadding(to: 12)
            + fixed(Double(recorder.recordedFrames) / 48_000 / recordingSeconds, decimals: 0).leftPadding(to: 13)
            + encodedAtStop.leftPadding(to: 17) + fixed(Self.seconds(stopped), decimals: 3).leftPadding(to: 9) + "\(frames)".leftPadding(to: 14))
        unlink(url)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Seeded noise, written a megabyte at a time (an hour is 691 MB).
    private static func writeNoise(to path: String, frames: Int) throws {
        guard let file = fopen(path, "wb") else { throw CocoaError(.fileWriteUnknown) }
        defer { fclose(file) }
        var state: UInt64 = 0x5EED
        var chunk = [Int16](repeating: 0, count: 1 << 19)
        var remaining = frames * 2
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            for index in 0..<count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                chunk[index] = Int16(truncatingIfNeeded: state >> 52)
            }
            guard fwrite(chunk, 2, count, file) == count else { throw CocoaError(.fileWriteUnknown) }
            remaining -= count
        }
    }
}
