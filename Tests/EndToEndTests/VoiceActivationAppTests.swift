import Foundation
import SoundFiles
import Testing

/// The app's `v` in tmux, on a file source of tone bursts and silence.
@Suite(.serialized) struct VoiceActivationAppTests {
    /// A mono 16-bit WAV of 440 Hz bursts: `(seconds, peak dBFS or nil for silence)` sections, repeated.
    static func writeBursts(to path: String, sections: [(Double, Double?)], repeats: Int, sampleRate: Int = 48000) throws {
        let writer = try SoundFileWriter(
            path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: sampleRate, channels: 1))
        var samples: [Int16] = []
        for _ in 0..<repeats {
            for (seconds, level) in sections {
                let frames = Int(seconds * Double(sampleRate))
                let amplitude = level.map { pow(10, $0 / 20) } ?? 0
                samples += (0..<frames).map {
                    Int16((32767 * amplitude * sin(2 * Double.pi * 440 * Double($0) / Double(sampleRate))).rounded())
                }
            }
        }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: samples.count, sampleFormat: .int16)
        }
        try writer.close()
    }

    @Test func vRecordsEachBurstAsAMemoWithACountdown() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("bursts.wav").path
        try Self.writeBursts(to: path, sections: [(1, nil), (1.5, -12), (4, nil)], repeats: 5)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        var screen = try app.waitFor("Listening to file:")
        #expect(screen.contains("idle  00:00:00"), "\(screen)")
        try app.press("v")
        screen = try app.waitFor("◎ VOICE")
        #expect(screen.contains("Voice activation on: recording starts at -40 dB"), "\(screen)")
        #expect(screen.split(separator: "\n")[1].contains("┃"), "the threshold mark is on the LED row: \(screen)")
        screen = try app.waitFor("● VOICE REC")
        #expect(screen.contains("● VOICE REC"), "\(screen)")
        screen = try app.waitFor("/2.0 s")
        #expect(screen.contains("silence "), "the countdown shows while the take ends: \(screen)")
        screen = try app.waitFor("Saved “Memo ", timeout: 8)
        #expect(screen.contains("Saved “Memo 20"), "\(screen)")
        let row = screen.split(separator: "\n").first { $0.contains("Memo 20") && $0.contains("00:00:0") }
        #expect(row != nil, "the take is in the table: \(screen)")

        let listed = try sandbox.listedMemos()
        #expect(!listed.isEmpty, "\(listed)")
        let first = listed.last
        #expect((first?["title"] as? String)?.hasPrefix("Memo 20") == true, "\(listed)")
        let duration = first?["duration"] as? Double ?? 0
        #expect(duration > 3.3 && duration < 4.5, "pre-roll + 1.5 s of tone + 2 s of silence: \(duration)")

        try app.press("v")
        screen = try app.waitFor("Voice activation off")
        #expect(screen.contains("idle  00:00:00"), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    @Test func theSettingsPanelChangesWhatVArmsWith() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-60")
        _ = try app.waitFor("Listening to tone:")
        try app.press("V")
        var screen = try app.waitFor("Voice activation (v)")
        #expect(screen.contains("Threshold"), "\(screen)")
        for _ in 0..<5 { try app.press("Left") }
        try app.press("Escape")
        try app.press("v")
        screen = try app.waitUntil { $0.contains("◎ VOICE") && $0.contains("recording starts at") }
        #expect(screen.contains("recording starts at -45 dB"), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}

/// The config file, through the real binary.
@Suite struct ConfigFileTests {
    @Test func formatWavInTheConfigMakesRecordWriteWAV() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("# defaults\nformat = wav\nchannels = 1\n")
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.3", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains("\"format\": \"wav\""), "\(outcome)")
        #expect(outcome.standardOutput.contains("\"channels\": 1"), "\(outcome)")
        let flagged = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.3", "--format", "flac", "--json")
        #expect(flagged.standardOutput.contains("\"format\": \"flac\""), "the flag wins: \(flagged)")
    }

    @Test func aBadConfigStopsRecordMeterAndTheAppWithTheLine() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("format = wav\nvox.treshold = -40\n")
        let file = sandbox.configDirectory.path + "/voicememo/config"
        for arguments in [["record", "--duration", "1"], ["meter", "--duration", "1"], ["--source", "tone:440@-12"]] {
            let outcome = try sandbox.run(arguments: arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome)")
            #expect(outcome.standardError.contains("\(file), line 2: unknown key \"vox.treshold\" (did you mean vox.threshold?)"), "\(outcome)")
            #expect(outcome.standardOutput.isEmpty, "nothing drawn before the message: \(outcome)")
        }
        let listed = try sandbox.run("list")
        #expect(listed.status == 0, "commands that read no settings still work: \(listed)")
    }
}
