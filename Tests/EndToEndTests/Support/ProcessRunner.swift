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
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        if let standardInput {
            let inputURL = scratch.url.appendingPathComponent("stdin")
            try Data(standardInput.utf8).write(to: inputURL)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }

        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw LaunchFailure(executable: executable, underlying: error)
        }

        var timedOut = false
        if finished.wait(timeout: .now() + timeout.timeInterval) == .timedOut {
            timedOut = true
            process.terminate()
            if finished.wait(timeout: .now() + 2) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                finished.wait()
            }
        }
        return ProcessOutcome(
            status: process.terminationStatus,
            wasSignalled: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut,
            standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch and Foundation APIs.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
