import Foundation
import Testing

/// `o` plays a stream from the loopback test server
/// (Tests/stream-server.py), `R` records it into a memo, and a stream that cannot play says why.
@Suite(.serialized) struct AppTmuxStreamTests {
    /// The tone's peak is −18 dBFS, its RMS −21 dB (ffmpeg's sine).
    private func setUp() throws -> (VoiceMemoSandbox, StreamTestServer) { try StreamTestServer.servingATone() }

    private func memos(_ sandbox: VoiceMemoSandbox) throws -> [[String: Any]] { try StreamTestServer.memos(sandbox) }

    @Test(.enabled(if: PulseDaemon.isAvailable, "pulseaudio cannot start here (needs /usr/bin/pulseaudio and libasound2-plugins)"))
    func aStreamPlaysWithItsTitleAndLevelsAndRRecordsItIntoAMemo() throws {
        let (sandbox, server) = try setUp()
        let pulse = try #require(PulseDaemon())
        defer { pulse.stop() }
        pulse.install(in: sandbox)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device \(PulseDaemon.device)")
        try app.waitForStart("Listening to tone:440@-40")

        try app.press("o")
        var screen = try app.waitFor("Stream URL:")
        #expect(screen.contains("⏎ play  Esc cancel"), "\(screen)")
        try app.type(server.url("live/tone.mp3?bps=16000"))
        try app.press("Enter")
        // The server's icy-name and its StreamTitle ("Song K", a new one every 1.5 s).
        screen = try app.waitUntil(timeout: 15) { $0.contains(" — VoiceMemo Test Radio · live") && $0.contains("s stop  R record it") }
        #expect(screen.contains(" — VoiceMemo Test Radio · live"), "\(screen)")
        let firstSong = try #require(song(screen), "\(screen)")
        // The meter shows the stream (−21 dB RMS), not the −43 dB input; a tick can fall in an
        // underrun of the null sink's start, so wait for a reading.
        screen = try app.waitUntil(timeout: 10) { screen in
            let levels = MeterRows.levels(screen)
            return levels.count == 2 && levels.allSatisfy { $0 > -27 && $0 < -17 }
        }
        let levels = MeterRows.levels(screen)
        #expect(levels.count == 2 && levels.allSatisfy { $0 > -27 && $0 < -17 }, "the stream's level on the meter: \(levels) \(screen)")
        screen = try app.waitUntil(timeout: 10) { self.song($0).map { $0 > firstSong } ?? false }
        #expect((song(screen) ?? 0) > firstSong, "the title follows the stream: \(screen)")

        try app.press("R")
        screen = try app.waitForRecording(atLeast: 2, timeout: 15)
        #expect(screen.contains("url:" + server.url("live/tone.mp3?bps=16000")), "the input is the stream: \(screen)")
        try app.press("s")
        screen = try app.waitFor("Title: Song ")
        try app.type("Radio clip")
        try app.press("Enter")
        screen = try app.waitUntil(timeout: 15) { $0.contains("▶ Radio clip") && $0.contains("Saved “Radio clip”") }
        #expect(screen.contains("▶ Radio clip"), "the memo is in the table: \(screen)")
        // The stream still plays; s stops it and the input before R comes back.
        try app.press("s")
        screen = try app.waitFor("Listening to tone:440@-40")
        #expect(!screen.contains("VoiceMemo Test Radio"), "\(screen)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))

        let memo = try #require(try memos(sandbox).first)
        #expect(memo["title"] as? String == "Radio clip")
        let duration = try #require(memo["duration"] as? Double)
        #expect(duration >= 2, "recorded while the timer ran past 2 s: \(duration)")
        let peak = try #require(memo["peak_db"] as? Double)
        #expect(peak > -24 && peak < -16, "the stream's tone was recorded: \(peak)")
    }

    @Test func aStreamThatCannotPlaySaysWhyAndLosesNothing() throws {
        let (sandbox, server) = try setUp()
        let recorded = try sandbox.run("record", "--source", "tone:440@-12", "--duration", "1", "--title", "Kept")
        #expect(recorded.status == 0, "\(recorded)")
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device null")
        try app.waitForStart("Listening to tone:440@-40")
        try app.press("R")
        var screen = try app.waitFor("Nothing is streaming")
        #expect(screen.contains("Press o to open a stream"), "\(screen)")

        try app.press("o")
        try app.waitFor("Stream URL:")
        try app.type("ftp://127.0.0.1/x.mp3")
        try app.press("Enter")
        screen = try app.waitFor("is not an http:// or https:// URL")
        #expect(screen.contains("Stream URL: ftp://127.0.0.1/x.mp3"), "the prompt stays open: \(screen)")
        try app.press("C-u")
        try app.type(server.url("status/404"))
        try app.press("Enter")
        screen = try app.waitFor("Cannot play the stream: HTTP 404 Not Found from 127.0.0.1:\(server.port).", timeout: 15)
        #expect(screen.contains("r record/pause"), "back to the table's keys: \(screen)")

        // The prompt offers the URL again; a page that is not audio, and a refused connection.
        for (path, message) in [
            (server.url("html"), "replied with an HTML page"), ("http://127.0.0.1:1/radio.mp3", "cannot connect to 127.0.0.1:1"),
        ] {
            try app.press("o")
            try app.waitFor("Stream URL: ")
            try app.press("C-u")
            try app.type(path)
            try app.press("Enter")
            screen = try app.waitFor(message, timeout: 15)
            #expect(screen.contains("Cannot play the stream: "), "\(screen)")
        }
        #expect(screen.contains("▶ Kept"), "the memo is untouched: \(screen)")
        #expect(screen.contains("tone:440@-40"), "the input is untouched: \(screen)")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
        #expect(try memos(sandbox).count == 1)
    }

    /// `R` on a stream whose ICY StreamTitle has 4012 characters records it,
    /// its memo titled with the first 500 (the title rule's limit, `MemoTitle.fitted`) — it was
    /// refused, "the title has 4012 characters". The null device plays at the server's pace.
    @Test func rRecordsAStreamWhoseTitleIsOverTheLimitUnderACutTitle() throws {
        let (sandbox, server) = try setUp()
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device null")
        try app.waitForStart("Listening to tone:440@-40")
        try app.press("o")
        try app.waitFor("Stream URL:")
        let url = server.url("live/tone.mp3?bps=16000&titlelength=4012")
        try app.type(url)
        try app.press("Enter")
        var screen = try app.waitUntil(timeout: 15) { $0.contains("▶ Song ") && $0.contains(" la la") }
        try app.press("R")
        screen = try app.waitUntil(timeout: 15) { (AppTmuxSession.recordedSeconds($0) ?? 0) >= 1 || $0.contains("title has") }
        #expect(!screen.contains("title has"), "not refused: \(screen)")
        #expect(screen.contains("url:" + server.url("live/tone.mp3")), "the input is the stream: \(screen)")
        try app.press("s")
        screen = try app.waitFor("Title: Song ")
        try app.press("Enter")
        screen = try app.waitUntil(timeout: 15) { $0.contains("Saved") || $0.contains("Renamed") }
        try app.press("s")
        try app.waitFor("Listening to tone:440@-40")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))

        let memo = try #require(try memos(sandbox).first)
        let title = try #require(memo["title"] as? String)
        // 499 characters and "…", less a space the cut left at its end.
        #expect(title.count <= 500 && title.count >= 498, "cut to the limit: \(title.count) characters")
        #expect(title.hasPrefix("Song ") && title.hasSuffix("…"), "\(title.prefix(20))…\(title.suffix(10))")
    }

    /// K from "▶ Song K — VoiceMemo Test Radio · …" on the status line.
    private func song(_ screen: String) -> Int? {
        guard let range = screen.range(of: "▶ Song ") else { return nil }
        return Int(screen[range.upperBound...].prefix { $0.isNumber })
    }
}
