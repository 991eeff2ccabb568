import Foundation
import Testing

/// `voicememo meter --alert-above DB --for T --exec CMD`, the noise alert, on rooms made with sox
/// and espeak-ng (white noise at −60 dBFS RMS, seeded by sox -R), played in unpaced.
@Suite struct MeterAlertTests {
    struct Event: Decodable {
        struct Alert: Decodable {
            let level_db: Double
            let threshold_db: Double
            let since: Double
        }
        let t: Double
        let alert: Alert?
    }

    /// `room.wav`: 2 s of room, `middle` (a sox command writing middle.wav), 2 s of room.
    static func makeRoom(_ middle: String, in sandbox: VoiceMemoSandbox) throws {
        let outcome = try sandbox.shell("""
            set -e
            \(middle)
            sox -n -r 48000 -b 16 -c 1 gap.wav trim 0 2
            sox gap.wav middle.wav gap.wav clean.wav
            sox -R -n -r 48000 -b 16 -c 1 noise.wav synth "$(soxi -D clean.wav)" whitenoise vol 0.001
            sox -m -v 1 clean.wav -v 1 noise.wav -b 16 room.wav
            """)
        try #require(outcome.status == 0, "building the room failed: \(outcome)")
    }

    static func alerts(_ outcome: ProcessOutcome) throws -> [Event] {
        try outcome.standardOutput.split(separator: "\n")
            .map { try JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
            .filter { $0.alert != nil }
    }

    /// Waits until `path` holds a complete line (the command runs beside the meter).
    ///
    /// The command must not die with the meter: the meter does not wait for it, and when the
    /// meter exits `ProcessRunner` kills its whole process group, which the command joined at
    /// `posix_spawnp`. The unpaced meter exits 0.1–0.2 s after it starts the command, so a command
    /// not run within that (a loaded machine; `sh -c 'sleep 0.3; …'` here) wrote nothing. So
    /// the tests' commands start with `setsid`: in a session of their own they outlive the
    /// meter however late they run, and the waits below end on what they wrote.
    static func waitForLine(_ path: String, deadline seconds: Double = 10) -> String? {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n") { return text }
            usleep(10_000)
        }
        return nil
    }

    @Test func aKnockShorterThanForDoesNotAlert() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        try Self.makeRoom("sox -n -r 48000 -b 16 -c 1 middle.wav synth 0.3 whitenoise vol 0.5", in: sandbox)
        let outcome = try sandbox.run(
            "meter", "--source", "file:" + sandbox.file("room.wav"), "--alert-above", "-35", "--for", "1s", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try Self.alerts(outcome).isEmpty, "\(outcome)")
        // Without --for the same knock alerts, once: the room is loud enough to be heard.
        let immediate = try sandbox.run(
            "meter", "--source", "file:" + sandbox.file("room.wav"), "--alert-above", "-35", "--json")
        #expect(try Self.alerts(immediate).count == 1, "\(immediate)")
    }

    @Test func twoSecondsOfSpeechAlertOnceAndRunTheCommandWithTheLevelInItsEnvironment() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        try Self.makeRoom("""
            espeak-ng -w said.wav "The meeting moved to Thursday at three in the afternoon, please tell everyone"
            sox said.wav -r 48000 -b 16 -c 1 middle.wav trim 0 2 norm -6
            """, in: sandbox)
        let command = "setsid sh -c 'echo \"$VOICEMEMO_ALERT_LEVEL $VOICEMEMO_ALERT_TIME $VOICEMEMO_ALERT_THRESHOLD $VOICEMEMO_ALERT_FOR\" >> \(sandbox.file("alert.txt"))'"
        let outcome = try sandbox.run(
            "meter", "--source", "file:" + sandbox.file("room.wav"), "--alert-above", "-35", "--for", "1s", "--json",
            "--exec", command)
        #expect(outcome.status == 0, "\(outcome)")
        let alerts = try Self.alerts(outcome)
        #expect(alerts.count == 1, "\(outcome)")
        let event = try #require(alerts.first)
        #expect(event.t >= 3.0 && event.t <= 4.0, "1 s after the speech began at ~2 s: \(event.t)")
        #expect(abs(event.t - event.alert.map { $0.since + 1 }!) < 0.011)
        #expect((event.alert?.level_db ?? -160) >= -35)
        let line = try #require(Self.waitForLine(sandbox.file("alert.txt")), "the command ran")
        let fields = line.split(whereSeparator: \.isWhitespace)
        #expect(fields.count == 4, "\(line)")
        #expect(fields.count == 4 && Double(fields[1]).map { abs($0 - event.t) < 0.006 } == true, "\(line)")
        #expect(fields.count == 4 && fields[2] == "-35.0" && fields[3] == "1.00", "\(line)")
        #expect(line.split(separator: "\n").count == 1, "once")
    }

    /// CMD's words go to posix_spawn as they are: `;` and `$(…)` reach `touch` as file names
    /// (through `setsid`, which passes them on as they are: see `waitForLine`).
    @Test func theCommandIsNeverInterpretedByAShell() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        try Self.makeRoom("sox -n -r 48000 -b 16 -c 1 middle.wav synth 1 sine 440 vol 0.5", in: sandbox)
        let outcome = try sandbox.run(
            "meter", "--source", "file:" + sandbox.file("room.wav"), "--alert-above", "-20",
            "--exec", "setsid touch '\(sandbox.file("a;b"))' \(sandbox.file("$(id)")) \(sandbox.file("done"))")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains("alert: level"), "\(outcome)")
        let end = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: sandbox.file("done")), Date() < end { usleep(10_000) }
        #expect(FileManager.default.fileExists(atPath: sandbox.file("a;b")))
        #expect(FileManager.default.fileExists(atPath: sandbox.file("$(id)")))
    }

    @Test func aCommandThatCannotRunIsNamedAndTheMeterGoesOn() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        try Self.makeRoom("sox -n -r 48000 -b 16 -c 1 middle.wav synth 1 sine 440 vol 0.5", in: sandbox)
        let outcome = try sandbox.run(
            "meter", "--source", "file:" + sandbox.file("room.wav"), "--alert-above", "-20", "--json",
            "--exec", "no-such-command-voicememo")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardError.contains("--exec: cannot run \"no-such-command-voicememo\""), "\(outcome)")
        #expect(try Self.alerts(outcome).count == 1)
        #expect(outcome.standardOutput.contains("\"summary\": true"), "\(outcome)")
    }

    @Test(arguments: [
        (["--alert-above", "5"], "--alert-above"),
        (["--alert-above", "loud"], "--alert-above"),
        (["--alert-above", "-30", "--for", "-1s"], "--for"),
        (["--alert-above", "-30", "--for", "soon"], "--for"),
        (["--for", "1s"], "--for"),
        (["--exec", "true"], "--exec"),
        (["--alert-above", "-30", "--exec", "'unfinished"], "--exec"),
        (["--alert-above", "-30", "--exec", " "], "--exec"),
    ])
    func badAlertValuesAreUsageErrorsNamingTheFlag(flags: [String], named: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run(arguments: ["meter", "--source", "tone:440@-12", "--duration", "1"] + flags)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(named), "\(outcome)")
    }
}
