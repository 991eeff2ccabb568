import TestSupport
import Dispatch
import Foundation

/// Runs a program as a subprocess and collects what it did.
///
/// Output goes to temporary files rather than pipes, so a chatty program cannot block on a
/// full pipe while the test waits for it.
enum ProcessRunner {
    /// Raised when the program cannot be started.
    struct LaunchFailure: Error, CustomStringConvertible {
        let executable: URL
        let underlying: any Error

        var description: String { "could not run \(executable.path): \(underlying)" }
    }

    /// Runs `executable` and waits for it, at most `timeout`.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - environment: the complete environment of the child; nothing is inherited.
    ///   - standardInput: text fed to standard input; `nil` gives it `/dev/null`.
    ///   - timeout: after this the process gets SIGTERM, and SIGKILL 2 s later.
    /// - Throws: ``LaunchFailure`` if it could not be started.
    static func run(
        _ executable: URL, arguments: [String], environment: [String: String],
        standardInput: String? = nil, timeout: Duration = .seconds(30)
    ) throws -> ProcessOutcome {
        let scratch = try TemporaryDirectory(prefix: "voicememo-process")
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)

        let inputPath: String
        if let standardInput {
            inputPath = scratch.url.appendingPathComponent("stdin").path
            try Data(standardInput.utf8).write(to: URL(fileURLWithPath: inputPath))
        } else {
            inputPath = "/dev/null"
        }
        let child = try spawn(
            executable, arguments: arguments, environment: environment,
            standardInput: inputPath, standardOutput: outputURL.path, standardError: errorURL.path)

        // The child leads its own process group, so a timeout also ends whatever it started.
        var status: Int32 = 0
        var timedOut = false
        let deadline = ContinuousClock.now + timeout
        while waitpid(child, &status, WNOHANG) == 0 {
            if ContinuousClock.now >= deadline {
                timedOut = true
                kill(-child, SIGTERM)
                let killDeadline = ContinuousClock.now + .seconds(2)
                while waitpid(child, &status, WNOHANG) == 0 {
                    if ContinuousClock.now >= killDeadline {
                        kill(-child, SIGKILL)
                        waitpid(child, &status, 0)
                        break
                    }
                    usleep(10_000)
                }
                break
            }
            usleep(5_000)
        }
        kill(-child, SIGKILL)  // anything the child left running in its group
        let signalled = (status & 0x7F) != 0 && (status & 0x7F) != 0x7F
        return ProcessOutcome(
            status: signalled ? status & 0x7F : (status >> 8) & 0xFF,
            wasSignalled: signalled,
            timedOut: timedOut,
            standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }

    /// Starts the child with `posix_spawn`: default signal dispositions and an empty signal
    /// mask (the test runner's threads block signals, and Foundation's `Process` passes that
    /// mask on, so a child could not be interrupted), in a process group of its own. The
    /// caller reaps it (`waitpid`).
    static func spawn(
        _ executable: URL, arguments: [String], environment: [String: String],
        standardInput: String, standardOutput: String, standardError: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_TRUNC, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw LaunchFailure(executable: executable, underlying: POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL))
        }
        return child
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch and Foundation APIs.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
