import Foundation
import Glibc
import Platform
import Vocabulary

/// A `voicememo record` that `toggle` starts when nothing records: detached from the terminal
/// (`setsid`, so closing the terminal or the hotkey daemon does not stop it), standard input
/// from /dev/null, its output to the library's log in the state folder. It serves the control
/// socket, so the next `toggle` stops it.
enum BackgroundRecording {
    struct Started {
        var pid: Int32
        var memo: Int64?
        var log: String
    }

    /// Starts the recording and waits (at most 10 s) until it serves the socket; fails with
    /// the log's last line when it ends first.
    static func start(context: CommandContext) throws -> Started {
        guard let log = try ControlConnection.logPath(environment: context.environment) else {
            throw CommandFailure("nowhere to keep the background recording's log: set XDG_STATE_HOME or HOME")
        }
        let socket = try ControlConnection.socketPath(environment: context.environment)
        try FileManager.default.createDirectory(
            atPath: (log as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let pid = try spawn(log: log, environment: context.environment)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let said = lastError(inLog: log) ?? "it exited with status \(status >> 8)"
                throw CommandFailure("the background recording did not start: \(said) (log: \(log))")
            }
            if case .success(let line) = ControlClient.send(ControlRequest.status.line, to: socket),
                case .status(let status)? = ControlReply.parse(line)
            {
                return Started(pid: status.pid, memo: status.memo, log: log)
            }
            usleep(20_000)
        }
        throw CommandFailure("the background recording (pid \(pid)) did not serve \(socket) within 10 s; see \(log)")
    }

    /// Waits for the library's toggle lock (`NAME.lock` beside the log, `flock`), so one `toggle`
    /// at a time asks the socket and starts a recording; the descriptor to close, or `nil` without a
    /// state folder.
    static func takeTurn(environment: [String: String]) throws -> Int32? {
        guard let log = try ControlConnection.logPath(environment: environment) else { return nil }
        let lock = String(log.dropLast(".log".count)) + ".lock"
        try FileManager.default.createDirectory(
            atPath: (lock as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let file = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard file >= 0 else { return nil }
        while flock(file, LOCK_EX) != 0, errno == EINTR {}
        return file
    }

    /// The last line of `log` when it is an error message (`voicememo: …`, not a warning or a
    /// note): what a background recording that failed said last.
    static func lastError(inLog log: String) -> String? {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return nil }
        guard let last = text.split(separator: "\n").last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        guard last.hasPrefix("voicememo: ") else { return nil }
        let message = last.dropFirst("voicememo: ".count)
        if message.hasPrefix("warning:") || message.hasPrefix("note:") { return nil }
        return String(message)
    }

    /// `voicememo record` from this process's own executable, detached.
    private static func spawn(log: String, environment: [String: String]) throws -> Int32 {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc 2.26), which Swift's Glibc module does not export; and the
        // default signal actions, since a hotkey daemon may have set SIGINT to SIG_IGN.
        let setsidFlag: Int32 = 0x80
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in StopSignals.handled { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(setsidFlag | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = [executable, "record"]
        let variables = environment.map { "\($0.key)=\($0.value)" }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
        guard status == 0 else {
            throw CommandFailure("cannot start `voicememo record` in the background: \(String(cString: strerror(status)))")
        }
        return pid
    }
}
