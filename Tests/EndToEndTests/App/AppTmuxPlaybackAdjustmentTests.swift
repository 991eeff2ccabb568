import TestSupport
import Foundation
import Testing

/// Speed, pitch, volume, skip silence and the jumps in the full-screen app, driven in tmux:
/// into the ALSA file device (exact frame counts and levels), and in real time on the
/// suite's private PulseAudio (the running player changes under the keys).
@Suite(.serialized) struct AppTmuxPlaybackAdjustmentTests {
    /// A sandbox whose library holds "Tone", a 1 kHz WAV tone peaking at `peakDBFS`.
    private func sandboxWithATone(seconds: Int, peakDBFS: Int) throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let recorded = try sandbox.run(
            "record", "--source", "tone:1000@\(peakDBFS)", "--duration", "\(seconds)", "--format", "wav", "--title", "Tone")
        #expect(recorded.status == 0, "\(recorded)")
        sandbox.environment["VOICEMEMO_UNPACED"] = nil
        return sandbox
    }

    private func header(_ screen: String) -> String { PlaybackScreen.header(screen) }

    private func meterLevels(_ screen: String) -> [Double] { MeterRows.levels(screen) }

    private func playHead(_ screen: String) -> Int? { PlaybackScreen.playHead(screen) }

    /// Keys pressed before ⏎ are kept for the memo played: at 2× and 50 % a 4 s tone goes to
    /// the device as 2 s (±1 %), 6.02 dB lower (±0.3 dB: SoundTouch's overlaps of a sine).
    @Test func settingsChosenBeforePlayingAreThoseTheMemoPlaysWith() throws {
        let sandbox = try sandboxWithATone(seconds: 4, peakDBFS: -6)
        let silence = sandbox.file("silence.raw")
        try TestSignals.writeRawNoise(to: silence, frames: 48000)
        try sandbox.installALSATestDevices(captureFile: silence, playbackFile: sandbox.file("played.raw"))
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device voicememo_playback")
        _ = try app.waitFor("Listening to")
        try app.type("]]]]]]]]]]")
        var screen = try app.waitFor("Speed 2×, pitch kept. For the memos you play.")
        #expect(screen.contains("Speed 2×, pitch kept. For the memos you play."), "\(screen)")
        try app.type("-----")
        screen = try app.waitFor("Volume 50 %. For the memos you play.")
        #expect(screen.contains("Volume 50 %. For the memos you play."), "\(screen)")
        try app.press("Enter")
        screen = try app.waitFor("Finished playing “Tone”.")
        #expect(screen.contains("Finished playing “Tone”."), "\(screen)")
        let played = try Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw"))).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        let frames = played.count / 2
        #expect(abs(frames - 96_000) <= 960, "2× plays 4 s of memo as 2 s: \(frames) frames")
        // The middle second: away from SoundTouch's start-up and the end's flush.
        let middle = played[(48_000 / 2 * 2)..<(48_000 * 3 / 2 * 2)]
        let peak = Double(middle.map { abs(Int($0)) }.max() ?? 0) / 32768
        let peakDB = 20 * log10(max(peak, 1e-9))
        #expect(abs(peakDB - (-6 - 6.02)) <= 0.3, "50 % is −6.02 dB: peak \(peakDB) dBFS")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// `f` before ⏎: the memo plays enhanced. 4 s of pink noise alone goes to the device as
    /// many frames, its last 2 s 15 dB or more down (the denoiser has learned it by then).
    @Test func fPlaysTheMemoEnhanced() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("sox -R -n -r 48000 -c 2 -b 16 \"$VOICEMEMO_HOME/Noise.wav\" synth 4 pinknoise gain -n -30")
        #expect(made.status == 0, "\(made)")
        let silence = sandbox.file("silence.raw")
        try TestSignals.writeRawNoise(to: silence, frames: 48000)
        try sandbox.installALSATestDevices(captureFile: silence, playbackFile: sandbox.file("played.raw"))
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device voicememo_playback")
        _ = try app.waitFor("Listening to")
        try app.type("f")
        var screen = try app.waitFor("Enhance on")
        #expect(screen.contains("Enhance on: background noise suppressed while playing"), "\(screen)")
        try app.press("Enter")
        screen = try app.waitFor("Finished playing “Noise”.")
        #expect(screen.contains("Finished playing “Noise”."), "\(screen)")
        let played = try Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw"))).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        #expect(abs(played.count / 2 - 4 * 48_000) <= 480, "as many frames: \(played.count / 2)")
        let memo = try Data(contentsOf: sandbox.libraryDirectory.appendingPathComponent("Noise.wav")).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self).suffix(2 * 48_000 * 2))
        }
        func rms(_ samples: ArraySlice<Int16>) -> Double {
            (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
        }
        let tail = played.count >= 4 * 48_000 ? played[(played.count - 2 * 48_000 * 2)...] : played[...]
        let drop = 20 * log10(rms(memo[...]) / max(rms(tail), 1e-9))
        print("AppTmuxPlaybackAdjustmentTests: f: the noise played \(drop) dB down")
        #expect(drop >= 15, "\(drop) dB")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// While the memo plays in real time, the keys change the running player: `-` lowers the
    /// levels the meter shows (what goes to the device), `]` and `5` show in the header and
    /// move the play head, `+` above 100 % clips a loud tone and says so, `x` shows what it
    /// skipped.
    @Test(.enabled(if: PulseDaemon.isAvailable, "pulseaudio cannot start here (needs /usr/bin/pulseaudio and libasound2-plugins)"))
    func keysChangeTheRunningPlayer() throws {
        let sandbox = try sandboxWithATone(seconds: 20, peakDBFS: -3)
        let (pulse, app) = try PlaybackScreen.playFirstMemo(of: sandbox)
        defer { pulse.stop() }
        // A −3 dBFS sine is −6 dB RMS; once the play head moves the meter shows it.
        var screen = try app.waitUntil(timeout: 10) { self.playHead($0).map { $0 >= 1 } ?? false }
        screen = try app.waitUntil(timeout: 5) { screen in
            let levels = self.meterLevels(screen)
            return !levels.isEmpty && levels.allSatisfy { $0 > -8 && $0 < -4 }
        }
        #expect(meterLevels(screen).allSatisfy { $0 > -8 && $0 < -4 }, "as recorded: \(screen)")

        try app.type("-----")
        screen = try app.waitUntil(timeout: 5) { screen in
            let levels = self.meterLevels(screen)
            return !levels.isEmpty && levels.allSatisfy { $0 > -14 && $0 < -10 }
        }
        #expect(header(screen).contains("vol 50 %"), "\(screen)")
        #expect(meterLevels(screen).allSatisfy { $0 > -14 && $0 < -10 }, "50 % is 6 dB down on the meter: \(screen)")

        try app.type("++++++++++")
        screen = try app.waitUntil(timeout: 5) { self.header($0).contains("CLIP") }
        #expect(header(screen).contains("vol 150 %  CLIP"), "\(screen)")
        #expect(screen.contains("Clipping at 150 %: press - to lower the volume."), "\(screen)")

        try app.type("]]]]]]]]]]")
        screen = try app.waitUntil(timeout: 5) { self.header($0).contains("2×") }
        #expect(header(screen).contains("2×"), "\(screen)")
        try app.type("5")
        screen = try app.waitUntil(timeout: 5) { self.playHead($0).map { $0 >= 10 } ?? false }
        #expect((playHead(screen) ?? 0) >= 10, "5 jumps to 50 % of 20 s: \(screen)")

        try app.type("x")
        screen = try app.waitUntil(timeout: 5) { self.header($0).contains("skip silence 0.0 s") }
        #expect(header(screen).contains("skip silence 0.0 s"), "a tone has no pause to skip: \(screen)")
        #expect(screen.contains("Skipping silence"), "\(screen)")
        try app.press("s")
        screen = try app.waitFor("Stopped “Tone” at")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }
}

/// `b`, `n`, `N` in the app: markers stored in the index as they are pressed.
@Suite(.serialized) struct AppTmuxMarkerTests {
    private func header(_ screen: String) -> String { PlaybackScreen.header(screen) }

    private func playHead(_ screen: String) -> Int? { PlaybackScreen.playHead(screen) }

    private func markerTimes(_ sandbox: VoiceMemoSandbox) throws -> [Double] {
        let markers = try sandbox.listedMemos().first?["markers"] as? [[String: Any]] ?? []
        return markers.compactMap { $0["time"] as? Double }
    }

    /// A 20 s tone "Tone" in a new sandbox, playing in the app (stop the daemon when done).
    private func playingATwentySecondTone() throws -> (VoiceMemoSandbox, PulseDaemon, AppTmuxSession) {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        #expect(try sandbox.run("record", "--source", "tone:440@-12", "--duration", "20", "--title", "Tone").status == 0)
        sandbox.environment["VOICEMEMO_UNPACED"] = nil
        let (pulse, app) = try PlaybackScreen.playFirstMemo(of: sandbox)
        return (sandbox, pulse, app)
    }

    @Test(.enabled(if: PulseDaemon.isAvailable, "pulseaudio cannot start here (needs /usr/bin/pulseaudio and libasound2-plugins)"))
    func bWhilePlayingStoresAMarkerThatNJumpsTo() throws {
        let (sandbox, pulse, app) = try playingATwentySecondTone()
        defer { pulse.stop() }
        var screen = try app.waitUntil(timeout: 10) { self.playHead($0).map { $0 >= 2 } ?? false }
        let before = try #require(playHead(screen), "\(screen)")
        try app.type("b")
        screen = try app.waitFor("n and N jump between markers")
        #expect(header(screen).contains("┃"), "the marker is on the bar: \(screen)")
        // Stored as it was pressed: another process sees it while the app plays on.
        let deadline = Date().addingTimeInterval(5)
        var times: [Double] = []
        while times.isEmpty, Date() < deadline { times = try markerTimes(sandbox) }
        #expect(times.count == 1, "\(times)")
        let marker = try #require(times.first)
        #expect(marker >= Double(before) && marker < 20, "the play head when b was pressed: \(marker) (screen said \(before) s)")

        try app.type("9")
        screen = try app.waitUntil(timeout: 5) { self.playHead($0).map { $0 >= 18 } ?? false }
        try app.type("N")
        screen = try app.waitFor("Marker 1 of 1")
        #expect(playHead(screen).map { abs(Double($0) - marker) <= 2 } == true, "N jumped back to the marker: \(screen)")
        try app.press("s")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// The app labels a marker (`B`), `N` says the label, and `I` lists the
    /// markers and the transcript's state.
    @Test(.enabled(if: PulseDaemon.isAvailable, "pulseaudio cannot start here (needs /usr/bin/pulseaudio and libasound2-plugins)"))
    func bigBLabelsTheMarkerAndIShowsItWithTheTranscriptsState() throws {
        let (sandbox, pulse, app) = try playingATwentySecondTone()
        defer { pulse.stop() }
        _ = try app.waitUntil(timeout: 10) { self.playHead($0).map { $0 >= 2 } ?? false }
        try app.type("b")
        _ = try app.waitFor("B labels it")
        try app.type("B")
        var screen = try app.waitFor("Label of marker 1 (00:00:0")
        #expect(screen.contains("⏎ save  Esc cancel"), "the prompt's footer: \(screen)")
        try app.type("Intro")
        try app.press("Enter")
        screen = try app.waitFor("labelled “Intro”")
        let deadline = Date().addingTimeInterval(5)
        var labels: [String] = []
        while labels != ["Intro"], Date() < deadline {
            let markers = try sandbox.listedMemos().first?["markers"] as? [[String: Any]] ?? []
            labels = markers.compactMap { $0["label"] as? String }
        }
        #expect(labels == ["Intro"], "stored in the index as Enter was pressed")
        try app.type("9")
        _ = try app.waitUntil(timeout: 5) { self.playHead($0).map { $0 >= 18 } ?? false }
        try app.type("N")
        screen = try app.waitFor("Marker 1 of 1, 00:00:0")
        #expect(screen.contains(": Intro."), "\(screen)")
        try app.press("s")
        _ = try app.waitFor("Stopped “Tone” at")
        try app.type("I")
        screen = try app.waitFor("Transcript")
        let lines = screen.split(separator: "\n").map(String.init)
        let markers = lines.first { $0.hasPrefix(" Markers ") } ?? ""
        #expect(markers.contains("1: 00:00:0") && markers.contains("Intro"), "\(screen)")
        let transcript = lines.first { $0.hasPrefix(" Transcript ") } ?? ""
        #expect(transcript.contains("none: voicememo transcribe makes one"), "the sandbox does not transcribe: \(screen)")
        try app.press("Escape")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    @Test func bWhileRecordingMarksTheRecordingsTime() throws {
        let sandbox = try VoiceMemoSandbox()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-20")
        _ = try app.waitFor("Listening to tone:440@-20")
        try app.press("r")
        var screen = try app.waitForRecording(atLeast: 2)
        #expect(screen.contains("s stop  b mark"), "the footer shows b while recording: \(screen)")
        try app.type("b")
        screen = try app.waitFor("of the recording.")
        try app.press("s")
        _ = try app.waitFor("Title:")
        try app.press("Enter")
        _ = try app.waitFor("Saved")
        let memo = try #require(try sandbox.listedMemos().first)
        let times = (memo["markers"] as? [[String: Any]] ?? []).compactMap { $0["time"] as? Double }
        let duration = memo["duration"] as? Double ?? 0
        #expect(times.count == 1, "\(memo)")
        #expect(times.allSatisfy { $0 >= 1.5 && $0 <= duration }, "after the 2 s the timer showed, within the memo: \(times), \(duration)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }
}

/// Reading the playback header off a tmux screen.
private enum PlaybackScreen {
    /// The app on a null sink of the suite's PulseAudio, playing the selected (newest) memo.
    static func playFirstMemo(of sandbox: VoiceMemoSandbox) throws -> (PulseDaemon, AppTmuxSession) {
        let pulse = try #require(PulseDaemon())
        do {
            pulse.install(in: sandbox)
            let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device \(PulseDaemon.device)")
            _ = try app.waitFor("Listening to tone:440@-40")
            try app.press("Enter")
            return (pulse, app)
        } catch {
            pulse.stop()
            throw error
        }
    }

    static func header(_ screen: String) -> String {
        String(screen.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    /// "00:00:06" of a header's "▶  00:00:06 / 00:00:12", in seconds.
    static func playHead(_ screen: String) -> Int? {
        let line = header(screen)
        guard let slash = line.range(of: " / ") else { return nil }
        let parts = line[..<slash.lowerBound].suffix(8).split(separator: ":").compactMap { Int($0) }
        return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : nil
    }
}
