import TestSupport
import Dispatch
import Foundation

/// Runs a program as a subprocess and collects what it did.
///
/// Output goes to temporary files rather than pipes, so a chatty program cannot block on a
/// full pipe while the test waits for it.
enum ProcessRunner {
    /// Raised when the program cannot be started.
    typealias LaunchFailure = ChildSpawn.LaunchFailure

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

    /// Starts the child (`ChildSpawn.spawn`); the caller reaps it (`waitpid`).
    static func spawn(
        _ executable: URL, arguments: [String], environment: [String: String],
        standardInput: String, standardOutput: String, standardError: String
    ) throws -> pid_t {
        try ChildSpawn.spawn(
            executable, arguments: arguments, environment: environment, standardInput: standardInput,
            standardOutput: standardOutput, standardError: standardError)
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch and Foundation APIs.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
