import VoiceActivation
import Audio
import Foundation

/// The noise alert of `voicememo meter --alert-above DB [--for T] [--exec CMD]`: a
/// `LevelAlertTap` on the meter's engine, whose alerts the meter's loop reports each turn.
///
/// Each alert rings the terminal bell, prints a line (or, with `--json`, an event object
/// `{"t": …, "alert": {…}}`) and runs CMD if given. CMD is started directly from its words
/// (`posix_spawnp`, no shell); the level and the time go only into its environment:
/// `VOICEMEMO_ALERT_LEVEL` (dBFS), `VOICEMEMO_ALERT_TIME` (seconds of input), `VOICEMEMO_ALERT_THRESHOLD`,
/// `VOICEMEMO_ALERT_FOR`. Finished commands are reaped each turn; the meter does not wait for
/// one still running when it ends.
final class MeterAlert {
    let options: AlertOptions
    private let tap: LevelAlertTap
    private let rate: Double
    private var children: [pid_t] = []

    init(_ options: AlertOptions, engine: CaptureEngine) {
        self.options = options
        rate = Double(engine.format.sampleRate)
        tap = LevelAlertTap(
            engine: engine,
            settings: LevelAlert.Settings(thresholdDB: options.thresholdDB, duration: options.duration?.seconds ?? 0))
    }

    /// Reports the alerts since the last turn.
    func report(to console: Console, json: Bool, live: Bool) {
        reapFinishedCommands()
        let (alerts, lost) = tap.takeAlerts()
        for alert in alerts { report(alert, to: console, json: json, live: live) }
        if lost > 0 { console.printErrorMessage("warning: \(lost) alert(s) came too fast to report") }
    }

    /// The last turn: detaches and reports what is left.
    func finish(to console: Console, json: Bool, live: Bool) {
        tap.detach()
        report(to: console, json: json, live: live)
    }

    private func report(_ alert: LevelAlert.Alert, to console: Console, json: Bool, live: Bool) {
        let time = Double(alert.frame) / rate
        let since = Double(alert.startFrame) / rate
        let stayed = options.duration?.seconds ?? 0
        if json {
            console.printJSON(JSONValue.object([
                ("t", .number(time)),
                ("alert", .object([
                    ("level_db", .number(alert.levelDB)), ("threshold_db", .number(options.thresholdDB)),
                    ("for", .number(stayed)), ("since", .number(since)),
                ])),
            ]).serialized)
            if console.isErrorTerminal { console.writeError("\u{07}") }
        } else {
            let bell = console.isOutputTerminal ? "\u{07}" : ""
            console.printLine((live ? "\r\u{1B}[K" : "") + bell + String(
                format: "%7.2f s  alert: level %.1f dB above %.1f dB since %.2f s", time, alert.levelDB,
                options.thresholdDB, since))
        }
        guard let command = options.command else { return }
        let environment = [
            "VOICEMEMO_ALERT_LEVEL": String(format: "%.1f", alert.levelDB),
            "VOICEMEMO_ALERT_TIME": String(format: "%.2f", time),
            "VOICEMEMO_ALERT_THRESHOLD": String(format: "%.1f", options.thresholdDB),
            "VOICEMEMO_ALERT_FOR": String(format: "%.2f", stayed),
        ]
        switch Self.spawn(command, adding: environment) {
        case .success(let pid): children.append(pid)
        case .failure(let error):
            console.printErrorMessage("--exec: cannot run \"\(command[0])\": \(String(cString: strerror(error.code)))")
        }
    }

    struct SpawnError: Error {
        let code: Int32
    }

    /// Starts `words` (looked up on PATH) with standard input from /dev/null and this
    /// process's environment plus `adding`.
    static func spawn(_ words: [String], adding: [String: String]) -> Result<pid_t, SpawnError> {
        guard let name = words.first else { return .failure(SpawnError(code: ENOENT)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in adding { environment[key] = value }
        let argv = words.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, name, &actions, nil, argv, envp)
        return result == 0 ? .success(pid) : .failure(SpawnError(code: result))
    }

    private func reapFinishedCommands() {
        children.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == pid
        }
    }
}
