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
        try sandbox.writeConfig("vox.level_only = on")  // tone bursts are not speech
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        var screen = try app.waitFor("Listening to file:")
        #expect(screen.contains("idle  00:00:00"), "\(screen)")
        try app.press("v")
        screen = try app.waitFor("◎ VOICE")
        #expect(screen.contains("Voice activation on: recording starts at -40 dB"), "\(screen)")
        #expect(screen.split(separator: "\n")[1].contains("┃"), "the threshold mark is on the LED row: \(screen)")
        screen = try app.waitFor("● VOICE REC")
        #expect(screen.contains("● VOICE REC"), "\(screen)")
        screen = try app.waitFor("/3.0 s")
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
        #expect(duration > 4.3 && duration < 5.5, "pre-roll + 1.5 s of tone + 3 s of silence: \(duration)")

        try app.press("v")
        screen = try app.waitFor("Voice activation off")
        #expect(screen.contains("idle  00:00:00"), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// Four spoken sentences with 2.5 s pauses between them (espeak-ng,
    /// its own silences trimmed) are one memo at the defaults (at 2 s of silence, the
    /// default before, and at 2.5 s, they were four), at 80×24.
    @Test func aParagraphWithPausesOfTwoAndAHalfSecondsIsOneMemo() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("""
            set -e
            n=0
            for sentence in "Yesterday I finished the export prompt." "Today I write the loudness tests." \\
                "No blockers, but the review is slow." "That is all from me."; do
                n=$((n + 1))
                espeak-ng -w raw$n.wav "$sentence"
                sox -R raw$n.wav -r 48000 -c 1 -b 16 s$n.wav silence 1 0.01 -50d reverse silence 1 0.01 -50d reverse
            done
            sox -n -r 48000 -c 1 -b 16 lead.wav trim 0 10
            sox -n -r 48000 -c 1 -b 16 gap.wav trim 0 2.5
            sox -n -r 48000 -c 1 -b 16 tail.wav trim 0 6
            sox lead.wav s1.wav gap.wav s2.wav gap.wav s3.wav gap.wav s4.wav tail.wav paragraph.wav
            soxi -D paragraph.wav
            """)
        #expect(made.status == 0, "\(made)")
        let length = Double(made.standardOutput.split(separator: "\n").last ?? "") ?? 0
        // The file plays from the app's start: its first 10 s are silence, so `v` (pressed once
        // the app says it listens, seconds later on a loaded machine) is armed before the first word.
        let started = Date()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(sandbox.file("paragraph.wav"))")
        _ = try app.waitFor("Listening to file:", timeout: 8)
        try app.press("v")
        let armed = Date().timeIntervalSince(started)
        try #require(armed < 10, "v was pressed \(armed) s after the start, after the first word")
        _ = try app.waitFor("● VOICE REC", timeout: 20)
        // The take's row counts its length and size while it records (it read 00:00:00 0 B).
        let counting = try app.screenWhere(timeout: 15) { screen in
            screen.split(separator: "\n").contains { $0.contains("[recording]") && $0.contains("00:00:0") && !$0.contains("00:00:00") && !$0.hasSuffix(" 0 B") && $0.contains(" kB") }
        }
        let takeScreen = try app.screen()
        #expect(counting != nil, "the take's row counts: \(takeScreen)")
        let saved = try app.waitFor("Saved “Memo ", timeout: length + 20)
        #expect(saved.contains("Saved “Memo "), "\(saved)")
        // The file's tail is silence: nothing more starts; the one take holds all four
        // sentences (from 0.3 s before the first to 3 s after the last).
        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1, "one memo: \(memos)")
        let duration = memos.first?["duration"] as? Double ?? 0
        let spoken = length - 10 - 6
        #expect(duration > spoken + 2.5 && duration < spoken + 4, "the \(spoken) s paragraph and 3 s of silence: \(duration)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    @Test func theSettingsPanelChangesWhatVArmsWith() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-60")
        _ = try app.waitFor("Listening to tone:")
        try app.press("V")
        var screen = try app.waitFor("Voice activation (v)")
        #expect(screen.contains("Threshold"), "\(screen)")
        for _ in 0..<5 { try app.press("Left") }
        // The mark and the line under the meter follow the threshold as it changes (they must
        // not keep saying -40 dB), at 80×24.
        screen = try app.waitFor("┃ -45 dB when v arms it")
        let rows = screen.split(separator: "\n")
        #expect(rows.count > 1 && rows[1].contains("┃"), "the mark is on the LED row: \(screen)")
        try app.press("Escape")
        try app.press("v")
        screen = try app.waitUntil { $0.contains("◎ VOICE") && $0.contains("recording starts at") }
        #expect(screen.contains("recording starts at -45 dB"), "\(screen)")
        try app.press("V")
        for _ in 0..<10 { try app.press("Right") }
        screen = try app.waitFor("┃ -35 dB when V closes")
        try app.press("Escape")
        screen = try app.waitFor("listening for -35 dB")
        #expect(screen.contains("re-armed at -35 dB"), "\(screen)")
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
