import TestSupport
import Foundation
import Testing

/// Playback in the full-screen app, driven in tmux as a person would.
@Suite(.serialized) struct AppTmuxPlaybackTests {
    /// A sandbox whose library holds "Twelve seconds", a tone at −12 dBFS (−15 dB RMS)
    /// `seconds` long.
    private func sandboxWithAMemo(seconds: Int = 12) throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        let recorded = try sandbox.run(
            "record", "--source", "tone:440@-12", "--duration", "\(seconds)", "--title", "Twelve seconds")
        #expect(recorded.status == 0, "\(recorded)")
        return sandbox
    }

    /// A 3 s memo and the ALSA test devices, whose playback device writes `played.raw` (unpaced).
    private func sandboxWithFileDevices() throws -> VoiceMemoSandbox {
        let sandbox = try sandboxWithAMemo(seconds: 3)
        let silence = sandbox.file("silence.raw")
        try TestSignals.writeRawNoise(to: silence, frames: 48000)
        try sandbox.installALSATestDevices(captureFile: silence, playbackFile: sandbox.file("played.raw"))
        return sandbox
    }

    /// The header's first line, e.g. " Twelve seconds  ███░░░ ▶  00:00:03 / 00:00:12".
    private func header(_ screen: String) -> String {
        String(screen.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    /// "00:00:03" from a header showing "▶  00:00:03 / 00:00:12" (or ❚❚).
    private func elapsed(_ screen: String) -> String? {
        let line = header(screen)
        guard let slash = line.range(of: " / ") else { return nil }
        return String(line[..<slash.lowerBound].suffix(8))
    }

    /// The play head in seconds ("00:00:03" is 3), if the header shows one.
    private func elapsedSeconds(_ screen: String) -> Int? {
        elapsed(screen).flatMap { AppTmuxSession.seconds(Substring($0)) }
    }

    private func meterLevels(_ screen: String) -> [Double] { MeterRows.levels(screen) }

    @Test(.enabled(if: PulseDaemon.isAvailable, "pulseaudio cannot start here (needs /usr/bin/pulseaudio and libasound2-plugins)"))
    func enterPlaysTheProgressAndMeterMoveSpacePausesSStops() throws {
        let sandbox = try sandboxWithAMemo()
        let pulse = try #require(PulseDaemon())
        defer { pulse.stop() }
        pulse.install(in: sandbox)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device \(PulseDaemon.device)")
        var screen = try app.waitForStart("Listening to tone:440@-40")
        #expect(screen.contains("▶ Twelve seconds"), "\(screen)")

        try app.press("Enter")
        // The footer is the last row drawn: once it shows the playback keys, the whole frame
        // is there (a capture can catch a frame half written, its header new and the rest old).
        screen = try app.waitFor("space pause  ← → seek 5 s  s stop")
        #expect(screen.contains("▶  00:00:"), "\(screen)")
        #expect(screen.contains("Playing “Twelve seconds”."), "\(screen)")
        #expect(header(screen).hasPrefix(" Twelve seconds  "), "\(screen)")
        #expect(header(screen).hasSuffix("/ 00:00:12"), "\(screen)")
        #expect(screen.contains("space pause  ← → seek 5 s  s stop"), "the footer shows the playback keys: \(screen)")
        // The null sink starts consuming after about 1.5 s; then the play head moves.
        // At least 2 s, not exactly: a poll starved for a second would miss one value. And a
        // frame whose meter reads: on a loaded machine one frame can fall in an underrun, its
        // rows below the scale ("<-60"), with nothing to read (seen beside the test shards).
        let early = try app.waitUntil(timeout: 8) {
            $0.contains("▶  ") && (self.elapsedSeconds($0) ?? 0) >= 2 && !self.meterLevels($0).isEmpty
        }
        let earlySeconds = try #require(elapsedSeconds(early), "\(early)")
        #expect(earlySeconds >= 2 && earlySeconds < 12, "\(early)")
        // The memo is a −12 dBFS tone (−15 dB RMS); the input is −40 dBFS (−43 dB RMS). On a
        // loaded machine a snapshot can straddle an underrun, so allow a few dB.
        let levels = meterLevels(early)
        #expect(!levels.isEmpty && levels.allSatisfy { $0 > -20 && $0 < -12 }, "the meter shows the memo's level, not the −40 dB input: \(levels) \(early)")
        let later = try app.waitUntil(timeout: 4) { $0.contains("▶  ") && (self.elapsedSeconds($0) ?? 0) > earlySeconds }
        let bars = [early, later].map { header($0).filter { $0 == "█" }.count }
        #expect(bars[1] > bars[0], "the progress bar grows: \(bars)")

        try app.press("Space")
        screen = try app.waitFor("❚❚  00:00:")
        #expect(screen.contains("Paused “Twelve seconds” at"), "\(screen)")
        let pausedAt = elapsed(screen)
        Thread.sleep(forTimeInterval: 1.5)
        screen = try app.screen()
        #expect(elapsed(screen) == pausedAt, "the play head holds while paused: \(String(describing: pausedAt)) → \(screen)")
        #expect(screen.contains("space resume"), "\(screen)")

        try app.press("s")
        screen = try app.waitFor("Stopped “Twelve seconds” at")
        #expect(screen.contains("idle  00:00:00"), "the header is back to the input: \(screen)")
        #expect(screen.contains("r record/pause"), "\(screen)")

        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// `O` chooses where memos play; the next ⏎ plays there (every frame in the
    /// test device's file), with the app started on ALSA's `default`.
    @Test func theOutputPickerChoosesTheDeviceOfTheNextPlay() throws {
        let sandbox = try sandboxWithFileDevices()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device null")
        try app.waitForStart()
        try app.press("O")
        var screen = try app.waitUntil { $0.contains("Choose where memos play") && $0.contains("voicememo_playback") }
        #expect(screen.contains("▶ null"), "the current device is selected: \(screen)")
        #expect(screen.contains("VoiceMemo test playback (a raw file)"), "ALSA's description: \(screen)")
        // Down to the test device (its place depends on the machine's ALSA devices).
        for _ in 0..<40 where !(try app.screen()).contains("▶ voicememo_playback ") {
            try app.press("Down")
            _ = try app.waitUntil(timeout: 2) { $0.contains("▶ ") }
        }
        try app.press("Enter")
        screen = try app.waitFor("Memos play on voicememo_playback.")
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("played.raw")), "nothing played yet")
        try app.press("Enter")
        screen = try app.waitFor("Finished playing “Twelve seconds”.")
        let played = try FileManager.default.attributesOfItem(atPath: sandbox.file("played.raw"))[.size] as? Int
        #expect(played == 3 * 48000 * 4, "every frame went to the chosen device: \(String(describing: played))")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    @Test func playbackToTheEndReturnsToIdle() throws {
        let sandbox = try sandboxWithFileDevices()
        // An unpaced file device: the whole memo is "played" at once.
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device voicememo_playback")
        try app.waitForStart()
        try app.press("Enter")
        let screen = try app.waitFor("Finished playing “Twelve seconds”.")
        #expect(screen.contains("Finished playing “Twelve seconds”."), "\(screen)")
        #expect(screen.contains("idle  00:00:00"), "\(screen)")
        let played = try FileManager.default.attributesOfItem(atPath: sandbox.file("played.raw"))[.size] as? Int
        #expect(played == 3 * 48000 * 4, "every frame went to the device: \(String(describing: played))")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    @Test func aMissingPlaybackDeviceIsAStatusLineMessage() throws {
        let sandbox = try sandboxWithAMemo(seconds: 1)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device no_such_device")
        try app.waitForStart()
        try app.press("Enter")
        var screen = try app.waitFor("Cannot play")
        // The message wraps over the two status lines.
        let message = AppTmuxSession.flattened(screen)
        #expect(message.contains("Cannot play “Twelve seconds”: the playback device 'no_such_device' cannot be opened (no such device)."), "\(screen)")
        #expect(!screen.contains("ALSA lib"), "alsa-lib prints nothing onto the screen: \(screen)")
        #expect(screen.contains("idle  00:00:00"), "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
