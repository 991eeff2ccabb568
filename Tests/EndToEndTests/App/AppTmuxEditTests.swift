import Foundation
import Testing

/// Trim and silence removal from the full-screen app, driven in tmux: play a memo, set in and
/// out at the play head, `X` and `y` trim it (the library's edit, as `voicememo trim` does it),
/// `u` brings the original back byte for byte; `Z` on the selected memo likewise. Every wait has a deadline; the play head is placed with the
/// jump keys while paused, so no step depends on how fast the sound plays.
@Suite(.serialized) struct AppTmuxEditTests {
    /// The memos `list --json` (or `--deleted`) prints.
    private func memos(_ sandbox: VoiceMemoSandbox, deleted: Bool = false) throws -> [[String: Any]] {
        let listed = try sandbox.run(arguments: deleted ? ["list", "--json", "--deleted"] : ["list", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]], "\(listed)")
    }

    /// Waits for `text` (with a deadline) and expects it there.
    private func shown(
        _ app: AppTmuxSession, _ text: String, timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let screen = try app.waitFor(text, timeout: timeout)
        #expect(screen.contains(text), "waited \(timeout) s for “\(text)”: \(screen)", sourceLocation: sourceLocation)
        return screen
    }

    /// After `u`: waits (20 s at most) until memo `originalID` is listed again, expects its file
    /// byte for byte as before the edit, and returns the memos listed.
    private func listedOnceUndone(
        _ sandbox: VoiceMemoSandbox, originalID: Int, originalBytes: Data, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(20)
        var back: [[String: Any]] = []
        while Date() < deadline {
            back = try memos(sandbox)
            if back.contains(where: { $0["id"] as? Int == originalID }) { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let restored = try #require(back.first { $0["id"] as? Int == originalID }, "the original is back: \(back)", sourceLocation: sourceLocation)
        let path = try #require(restored["path"] as? String, sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == originalBytes, "byte for byte", sourceLocation: sourceLocation)
        return back
    }

    @Test(.enabled(if: PulseDaemon.isAvailable, "pulseaudio cannot start here (needs /usr/bin/pulseaudio and libasound2-plugins)"))
    func inOutTrimThenUndoBringsTheOriginalBack() throws {
        let sandbox = try VoiceMemoSandbox()
        let recorded = try sandbox.run(
            "record", "--source", "tone:440@-12", "--duration", "10", "--title", "Ten seconds", "--format", "wav")
        #expect(recorded.status == 0, "\(recorded)")
        let original = try #require(try memos(sandbox).first)
        let originalID = try #require(original["id"] as? Int)
        let originalPath = try #require(original["path"] as? String)
        #expect(original["frames"] as? Int == 480_000)
        let originalBytes = try Data(contentsOf: URL(fileURLWithPath: originalPath))

        let pulse = try #require(PulseDaemon())
        defer { pulse.stop() }
        pulse.install(in: sandbox)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40 --device \(PulseDaemon.device)")
        var screen = try app.waitForStart("Listening to tone:440@-40")

        // Bad input first: X with no point set, ( with nothing playing.
        try app.press("X")
        screen = try shown(app, "No in or out point")
        #expect(!screen.contains("(y/N)"), "nothing asked: \(screen)")
        try app.type("(")
        screen = try shown(app, "play a memo first")

        try app.press("Enter")
        screen = try shown(app, "( ) X trim  S split")
        try app.press("Space")
        screen = try shown(app, "❚❚  00:00:")
        try app.press("2")
        screen = try shown(app, "❚❚  00:00:02 / 00:00:10")
        try app.type("(")
        screen = try shown(app, "In point at 2 s.")
        try app.press("7")
        screen = try shown(app, "❚❚  00:00:07 / 00:00:10")
        try app.type(")")
        screen = try shown(app, "Out point at 7 s. X keeps 2 s … 7 s.")
        #expect(screen.contains("▲") && screen.contains("[") && screen.contains("]"), "the band shows the play head and the points: \(screen)")
        try app.press("X")
        screen = try shown(app, "Trim “Ten seconds” to 2 s … 7 s?")
        try app.press("y")
        screen = try shown(app, "Trimmed “Ten seconds” to 5 s.", timeout: 20)
        #expect(screen.contains("The original is in Recently Deleted"), "\(screen)")

        let listed = try memos(sandbox)
        #expect(listed.count == 1, "\(listed)")
        let trimmed = try #require(listed.first)
        let trimmedID = try #require(trimmed["id"] as? Int)
        #expect(trimmedID != originalID)
        let frames = try #require(trimmed["frames"] as? Int)
        #expect(abs(frames - 240_000) <= 480, "5 s kept (to 10 ms of the play head): \(frames)")
        #expect(try memos(sandbox, deleted: true).compactMap { $0["id"] as? Int } == [originalID], "the original in Recently Deleted")

        try app.press("u")
        let back = try listedOnceUndone(sandbox, originalID: originalID, originalBytes: originalBytes)
        #expect(back.compactMap { $0["id"] as? Int } == [originalID], "the original is back: \(back)")
        #expect(back.first?["frames"] as? Int == 480_000)
        #expect(try memos(sandbox, deleted: true).compactMap { $0["id"] as? Int } == [trimmedID], "the trimmed memo went to Recently Deleted")
        screen = try app.waitUntil { $0.contains("00:00:10") && !$0.contains("Bringing back") }
        #expect(screen.contains("Ten seconds"), "\(screen)")

        try app.press("q")
        screen = try shown(app, "END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// A library of two memos: "Pauses" (1 s of tone, 3 s of silence, 1 s of tone) and, newer,
    /// "No pause" (1 s of tone), both stereo WAV.
    private func pausesAndNoPause(sourceLocation: SourceLocation = #_sourceLocation) throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("""
            sox -n -r 48000 -c 2 -b 16 tone.wav synth 1 sine 440 vol 0.25
            sox tone.wav tone-then-silence.wav pad 0 3
            sox tone-then-silence.wav tone.wav pauses.wav
            """)
        #expect(made.status == 0, "\(made)", sourceLocation: sourceLocation)
        for (file, title) in [("pauses.wav", "Pauses"), ("tone.wav", "No pause")] {
            let recorded = try sandbox.run(
                "record", "--source", "file:" + sandbox.file(file), "--title", title, "--format", "wav", "--no-transcribe")
            #expect(recorded.status == 0, "\(recorded)", sourceLocation: sourceLocation)
        }
        return sandbox
    }

    /// After a remove-pauses, its undo, another remove-pauses and a delete,
    /// Recently Deleted held rows told apart only by length. Now each says why it is there and
    /// when it went (today: the time), at 80 columns; `list --deleted --json` says why too.
    @Test func recentlyDeletedSaysWhyAndWhenEachMemoWent() throws {
        let sandbox = try pausesAndNoPause()
        let original = try #require(try memos(sandbox).first { $0["title"] as? String == "Pauses" })
        let originalID = try #require(original["id"] as? Int)
        let originalBytes = try Data(contentsOf: URL(fileURLWithPath: try #require(original["path"] as? String)))
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40")
        var screen = try app.waitForStart("Listening to tone:440@-40")
        try app.press("Down")
        try app.press("Z")
        screen = try shown(app, "Cut each pause of “Pauses”")
        try app.press("y")
        screen = try shown(app, "Removed the pauses of “Pauses”", timeout: 20)
        try app.press("u")
        _ = try listedOnceUndone(sandbox, originalID: originalID, originalBytes: originalBytes)
        screen = try app.waitUntil(timeout: 10) { !$0.contains("Bringing back") }
        try app.press("Z")
        screen = try shown(app, "Cut each pause of “Pauses”")
        try app.press("y")
        screen = try shown(app, "Removed the pauses of “Pauses”", timeout: 20)
        try app.press("Up")
        try app.press("d")
        screen = try shown(app, "Moved “No pause” to Recently Deleted")

        try app.press("t")
        screen = try app.waitUntil(timeout: 10) { $0.contains("before removing pauses") && $0.contains("undone pause removal") }
        let rows = screen.split(separator: "\n").filter { line in
            ["Pauses", "No pause"].contains { line.hasPrefix("▶ " + $0) || line.hasPrefix("  " + $0) }
        }
        #expect(rows.count == 3, "three deleted memos: \(screen)")
        for (title, reason) in [("No pause", "deleted"), ("Pauses", "before removing pauses"), ("Pauses", "undone pause removal")] {
            let row = rows.first { $0.contains(title) && $0.contains(reason) }
            #expect(row != nil, "“\(title)” says “\(reason)”: \(screen)")
            #expect(row?.contains(#/\s\d\d:\d\d\s/#) == true, "and the time it went: \(screen)")
        }
        #expect(rows.allSatisfy { $0.count <= 80 }, "\(screen)")

        let reasons = try memos(sandbox, deleted: true).compactMap { $0["deleted_reason"] as? String }
        #expect(reasons.sorted() == ["deleted", "remove-pauses", "undone-remove-pauses"], "\(reasons)")
        try app.press("Escape")
        try app.press("q")
        screen = try shown(app, "END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// `Z` on the selected memo: a memo without a pause is refused with the library's reason
    /// and left as it was; one with a 3 s pause between two tones (1 s each) becomes 2.5 s long
    /// (the pause cut to 0.5 s), the original in Recently Deleted, and `u` brings it back byte
    /// for byte. Nothing plays, so no sound server is needed.
    @Test func zRemovesThePausesOfTheSelectedMemoAndUBringsItBack() throws {
        let sandbox = try pausesAndNoPause()
        let before = try memos(sandbox)
        let original = try #require(before.first { $0["title"] as? String == "Pauses" })
        let originalID = try #require(original["id"] as? Int)
        #expect(original["frames"] as? Int == 240_000, "\(original)")
        let originalBytes = try Data(contentsOf: URL(fileURLWithPath: try #require(original["path"] as? String)))

        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40")
        var screen = try app.waitForStart("Listening to tone:440@-40")
        // The newest, "No pause", is selected: refused with the reason, nothing changed.
        try app.press("Z")
        screen = try shown(app, "Cut each pause of “No pause”")
        try app.press("y")
        screen = try shown(app, "nothing would be removed", timeout: 20)
        #expect(screen.contains("Cannot edit “No pause”") && screen.contains("The memo is as it was"), "\(screen)")
        #expect(try memos(sandbox).count == 2 && (try memos(sandbox, deleted: true)).isEmpty, "nothing changed")

        // n keeps the memo; y removes its pause.
        try app.press("Down")
        try app.press("Z")
        screen = try shown(app, "Cut each pause of “Pauses” to 0.5 s? (y/N)")
        try app.press("n")
        screen = try shown(app, "Not changed.")
        try app.press("Z")
        screen = try shown(app, "Cut each pause of “Pauses”")
        try app.press("y")
        screen = try shown(app, "Removed the pauses of “Pauses”: 5 s → 2.5 s.", timeout: 20)
        #expect(screen.contains("u brings it back"), "\(screen)")
        let after = try memos(sandbox)
        let shortened = try #require(after.first { $0["title"] as? String == "Pauses" }, "\(after)")
        #expect(shortened["frames"] as? Int == 120_000, "1 s + 0.5 s + 1 s: \(shortened)")
        #expect(try memos(sandbox, deleted: true).compactMap { $0["id"] as? Int } == [originalID], "the original in Recently Deleted")

        try app.press("u")
        let back = try listedOnceUndone(sandbox, originalID: originalID, originalBytes: originalBytes)
        #expect(back.count == 2, "the shortened memo went to Recently Deleted: \(back)")

        try app.press("q")
        screen = try shown(app, "END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// `F` then `y`: the selected memo enhanced as a new one (the noise 15 dB+ down, as many
    /// frames), the original in Recently Deleted; `u` brings it back byte for byte.
    @Test func capitalFEnhancesTheMemoAndUUndoesIt() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("sox -R -n -r 48000 -c 1 -b 16 \"$VOICEMEMO_HOME/Hiss.wav\" synth 4 whitenoise gain -n -30")
        #expect(made.status == 0, "\(made)")
        let original = try #require(try memos(sandbox).first)
        let originalID = try #require(original["id"] as? Int)
        let originalPath = try #require(original["path"] as? String)
        let originalBytes = try Data(contentsOf: URL(fileURLWithPath: originalPath))

        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40")
        var screen = try app.waitForStart("Listening to tone:440@-40")
        try app.press("F")
        screen = try shown(app, "Make “Hiss” with its background noise suppressed? (y/N)")
        try app.press("y")
        screen = try shown(app, "Enhanced “Hiss”: its background noise suppressed.", timeout: 20)
        #expect(screen.contains("u brings it back"), "\(screen)")
        let after = try memos(sandbox)
        let enhanced = try #require(after.first { $0["title"] as? String == "Hiss" }, "\(after)")
        #expect(enhanced["frames"] as? Int == 4 * 48_000, "\(enhanced)")
        #expect(try memos(sandbox, deleted: true).compactMap { $0["id"] as? Int } == [originalID], "the original in Recently Deleted")
        let floors = try sandbox.shell("""
            for f in "$(ls "$VOICEMEMO_HOME"/.trash/*.wav)" "\(try #require(enhanced["path"] as? String))"; do
              sox "$f" -n trim 2 2 stat 2>&1 | awk '/RMS     amplitude/ { print $3 }'
            done
            """)
        let levels = floors.standardOutput.split(separator: "\n").compactMap { Double($0) }
        #expect(levels.count == 2 && 20 * log10(levels[0] / max(levels[1], 1e-9)) >= 15, "\(floors)")

        try app.press("u")
        let back = try listedOnceUndone(sandbox, originalID: originalID, originalBytes: originalBytes)
        #expect(back.count == 1, "the enhanced memo went to Recently Deleted: \(back)")
        try app.press("q")
        screen = try shown(app, "END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    /// An MP3 edit is written as PCM first and encoded after; the status line
    /// said "removing pauses, 100 %" for all of the encoding. Now the encoding is part of the
    /// progress, said as such, and 100 % comes only at the end.
    @Test func anMP3EditShowsItsEncodingUntilTheEnd() throws {
        let sandbox = try VoiceMemoSandbox()
        // 10 minutes of 1 s tone and 2 s pause, adopted: 5 minutes of MP3 to encode after Z.
        let made = try sandbox.shell("""
            sox -n -r 48000 -c 1 -b 16 cycle.wav synth 1 sine 440 vol 0.25 pad 0 2
            sox cycle.wav long.wav repeat 199
            ffmpeg -v error -i long.wav -c:a libmp3lame -b:a 64k "$VOICEMEMO_HOME/Lecture.mp3"
            """, timeout: .seconds(120))
        #expect(made.status == 0, "\(made)")
        let adopted = try memos(sandbox)
        #expect(adopted.count == 1 && adopted.first?["title"] as? String == "Lecture", "\(adopted)")

        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-40", width: 100)
        _ = try app.waitForStart("Listening to tone:440@-40", timeout: 30)
        try app.press("Z")
        _ = try shown(app, "Cut each pause of “Lecture”")
        try app.press("y")
        let work = "Removing the pauses of “Lecture”… "
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(240)
        var finished = false
        var last = ""
        while Date() < deadline, !finished {
            last = try app.screen()
            lines += last.split(separator: "\n").map(String.init).filter { $0.contains(work) }
            finished = last.contains("Removed the pauses of “Lecture”")
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(finished, "the edit ended: \(last)")
        #expect(lines.contains { $0.contains(work + "encoding MP3, ") }, "the encoding is shown: \(Set(lines))")
        let fullBeforeTheEnd = lines.filter { $0.contains(", 100 %") }
        #expect(fullBeforeTheEnd.isEmpty, "no 100 % while the work runs: \(Set(lines))")
        let percents = lines.compactMap { line -> Int? in
            guard let comma = line.range(of: ", ", options: .backwards) else { return nil }
            return Int(line[comma.upperBound...].prefix { $0.isNumber })
        }
        #expect(percents == percents.sorted(), "the fraction only grows: \(percents)")
        let edited = try memos(sandbox)
        #expect(edited.count == 1 && (edited.first?["duration"] as? Double ?? 0) < 400, "\(edited)")
        try app.press("q")
        #expect(try app.waitFor("END", timeout: 20).contains("EXIT=0"))
    }
}
