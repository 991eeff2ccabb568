import Foundation
import TestSupport

/// The full-screen app running in a detached tmux session of its own (`-L` socket per
/// test), driven by keys and read back with `capture-pane`: what a person would see.
final class AppTmuxSession {
    let sandbox: VoiceMemoSandbox
    let socket = "vm-e2e-\(UUID().uuidString.prefix(8))"

    /// Starts `voicememo ARGUMENTS` at `width`×`height`. When it exits, the pane prints
    /// `EXIT=<status> MODES: … END` with the terminal modes that matter (`icanon`, `echo`).
    /// - Parameters:
    ///   - environment: extra `NAME=value` words for `env` (e.g. `TERM=xterm`).
    ///   - launcher: words put before `tmux … new-session`, which runs it as their last
    ///     arguments (`unshare -m … sh -c '…; exec "$@"' sh`): the tmux server, and so the
    ///     app, then live wherever the launcher put them (a private mount namespace).
    init(
        sandbox: VoiceMemoSandbox, arguments: String, width: Int = 80, height: Int = 24, environment: String = "",
        launcher: String = ""
    ) throws {
        try TestTier.requireEndToEnd(for: "tmux")
        self.sandbox = sandbox
        let library = sandbox.libraryDirectory.path
        let modes = "\\$(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')"
        let inner = "env VOICEMEMO_HOME='\(library)' NO_COLOR= LANG=C.UTF-8 \(environment) voicememo \(arguments); "
            + "echo EXIT=\\$? MODES: \(modes)END; sleep 120"
        let outcome = try sandbox.shell(
            "\(launcher) tmux -L \(socket) -f /dev/null new-session -d -s app -x \(width) -y \(height) \"\(inner)\"",
            timeout: .seconds(20))
        guard outcome.status == 0 else { throw TmuxFailure(description: "tmux new-session failed: \(outcome)") }
    }

    deinit {
        _ = try? tmux("kill-server")
    }

    struct TmuxFailure: Error, CustomStringConvertible {
        let description: String
    }

    @discardableResult
    func tmux(_ arguments: String) throws -> ProcessOutcome {
        try sandbox.shell("tmux -L \(socket) \(arguments)", timeout: .seconds(20))
    }

    /// The process id of the pane's shell (the app's parent).
    func panePID() throws -> String {
        try tmux("display -p -t app '#{pane_pid}'").standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pane's text now.
    func screen() throws -> String {
        try tmux("capture-pane -p -t app").standardOutput
    }

    /// Sends tmux key names (`Enter`, `C-u`, `r`).
    func press(_ keys: String...) throws {
        for key in keys { try tmux("send-keys -t app \(key)") }
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try tmux("send-keys -t app -l -- '\(text)'")
    }

    func resize(width: Int, height: Int) throws {
        try tmux("resize-window -t app -x \(width) -y \(height)")
    }

    /// Waits until the pane shows `text` (or `timeout` passes); returns the last screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 10) throws -> String {
        try waitUntil(timeout: timeout) { $0.contains(text) }
    }

    /// Waits until the app shows `text` (its input's "Listening to …") and its memo table has
    /// loaded: the input and the library open beside each other, in either order, so a screen
    /// that says "Listening to" may still say "Loading the library…".
    @discardableResult
    func waitForStart(_ text: String = "Listening to", timeout: Double = 10) throws -> String {
        try waitUntil(timeout: timeout) { $0.contains(text) && !$0.contains("Loading the library") }
    }

    /// `screen`'s rows trimmed and joined by spaces: a message the status line wraps over its
    /// two rows, read as one line.
    static func flattened(_ screen: String) -> String {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// The recording timer's seconds on `screen` ("● REC  00:06:12" is 372), if it shows one.
    static func recordedSeconds(_ screen: String) -> Int? {
        guard let mark = screen.range(of: "● REC  ") else { return nil }
        return seconds(screen[mark.upperBound...].prefix(8))
    }

    /// "00:06:12" as seconds (372); `nil` for anything else.
    static func seconds(_ clock: Substring) -> Int? {
        let numbers = clock.split(separator: ":").compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        return numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
    }

    /// Waits until the recording timer shows at least `seconds` (or `timeout` passes); returns
    /// the last screen. Never wait for one exact value: a real-time timer shows it for a second,
    /// which a starved poll can miss, and one fed 400 times faster for 0.15 s (a run under two
    /// `yes` hogs missed "00:06:" and recorded on to 9 hours).
    @discardableResult
    func waitForRecording(atLeast seconds: Int, timeout: Double = 10) throws -> String {
        try waitUntil(timeout: timeout) { (Self.recordedSeconds($0) ?? -1) >= seconds }
    }

    /// Waits until the pane's text satisfies `condition` (or `timeout` passes); returns the
    /// last screen, which the caller checks.
    ///
    /// A capture can fall between two writes of one frame (a loaded machine: the top of the
    /// screen new, the status line still the last frame's — a fresh-clone run saw "◎ VOICE"
    /// above the settings panel's footer). So a match is looked at again 50 ms later and that
    /// capture is returned when it still matches: the rest of the frame has been written.
    /// Tests that need two things of one frame wait for both (`waitUntil`), not for one and
    /// then check the other.
    @discardableResult
    func waitUntil(timeout: Double = 10, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) {
                Thread.sleep(forTimeInterval: 0.05)
                let settled = try screen()
                return condition(settled) ? settled : last
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return last
    }
}

/// What the app's meter rows say, read back from a captured screen.
enum MeterRows {
    /// The first number of each channel row (" L ██░░ rms  -15.0  pk  -9.1"): the RMS, PPM or
    /// VU reading in dBFS; silence ("-∞") reads as −∞.
    static func levels(_ screen: String) -> [Double] {
        screen.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix(" L ") || line.hasPrefix(" R ") || line.hasPrefix(" M ") else { return nil }
            let words = line.split(separator: " ")
            guard let label = words.firstIndex(where: { ["rms", "ppm", "vu"].contains($0) }), label + 1 < words.count
            else { return nil }
            return words[label + 1] == "-∞" ? -.infinity : Double(words[label + 1])
        }
    }
}
