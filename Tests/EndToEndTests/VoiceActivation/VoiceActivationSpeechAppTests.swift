import Foundation
import SoundFiles
import TestSupport
import Testing

/// The app's `v` listening for speech, in tmux at 80×24, on a file source: brown noise at the
/// threshold's level starts no take and the status line names the room; a spoken phrase in the
/// same room makes one.
@Suite(.serialized) struct VoiceActivationSpeechAppTests {
    /// Seeded brown noise (a leaky integrator over Gaussian noise) at `rmsDBFS` RMS.
    static func brownNoise(count: Int, rmsDBFS: Double, seed: UInt64) -> [Double] {
        var random = SplitMix64(seed: seed)
        var level = 0.0
        var output = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let u1 = max(Double(random.next() >> 11) / Double(1 << 53), 1e-12)
            let u2 = Double(random.next() >> 11) / Double(1 << 53)
            level = 0.999 * level + (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            output[index] = level
        }
        let rms = (output.reduce(0) { $0 + $1 * $1 } / Double(max(count, 1))).squareRoot()
        let gain = rms > 0 ? pow(10, rmsDBFS / 20) / rms : 0
        return output.map { $0 * gain }
    }

    @Test func brownNoiseAtTheThresholdStartsNoTakeAndNamesTheRoomThenSpeechDoes() throws {
        let sandbox = try VoiceMemoSandbox()
        let spoken = try sandbox.shell(
            "espeak-ng -w raw.wav 'Remember to buy milk and bread on the way home' && sox raw.wav -r 48000 -b 16 -c 1 phrase.wav")
        try #require(spoken.status == 0, "\(spoken)")
        let phrase = try TestSignals.readInt16(sandbox.file("phrase.wav")).samples
        let peak = Double(phrase.map { abs(Int($0)) }.max() ?? 1)
        let rate = 48_000
        let speechAt = 16 * rate
        var mix = Self.brownNoise(count: 26 * rate, rmsDBFS: -40, seed: 11)
        for (index, sample) in phrase.enumerated() where speechAt + index < mix.count {
            mix[speechAt + index] += Double(sample) / peak * 0.5
        }
        let samples = mix.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        let path = sandbox.file("room.wav")
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: rate, channels: 1))
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: samples.count, sampleFormat: .int16)
        }
        try writer.close()

        // The file plays from the app's start; `v` is pressed once it listens (the phrase comes at 16 s).
        let started = Date()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        _ = try app.waitFor("Listening to file:", timeout: 8)
        try app.press("v")
        _ = try app.waitFor("◎ VOICE")
        var screen = try app.waitFor("Room noise ", timeout: 12)
        let statusLine = screen.split(separator: "\n").dropLast().last.map(String.init) ?? ""
        #expect(statusLine.contains("is close to the -40 dB threshold"), "\(screen)")
        #expect(!screen.contains("Too quiet"), "\(screen)")
        #expect(!screen.contains("VOICE REC"), "the room alone starts no take: \(screen)")
        try #require(Date().timeIntervalSince(started) < 15, "the room was read before the phrase")
        #expect(try sandbox.listedMemos().isEmpty)

        screen = try app.waitFor("● VOICE REC", timeout: 20)
        screen = try app.waitFor("Saved “Memo ", timeout: 20)
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1, "the phrase makes one memo: \(memos)")
        let duration = memos.first?["duration"] as? Double ?? 0
        #expect(duration > 4 && duration < 7, "pre-roll, the phrase (2.7 s) and 3 s of silence: \(duration)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }
}
