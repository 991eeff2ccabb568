import Foundation
import Glibc

/// Starting a program from a test with `posix_spawn`, so that it can be signalled.
public enum ChildSpawn {
    /// Raised when the program cannot be started.
    public struct LaunchFailure: Error, CustomStringConvertible {
        public let executable: URL
        public let underlying: any Error

        public var description: String { "could not run \(executable.path): \(underlying)" }
    }

    /// Starts the child with `posix_spawn`: default signal dispositions and an empty signal
    /// mask (the test runner's threads block signals, and Foundation's `Process` passes that
    /// mask on, so a child could not be interrupted), in a process group of its own. The
    /// caller reaps it (`waitpid`). The output files are made when missing.
    public static func spawn(
        _ executable: URL, arguments: [String], environment: [String: String],
        standardInput: String = "/dev/null", standardOutput: String = "/dev/null", standardError: String = "/dev/null"
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

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
