/// A runtime failure a command reports with its own words and exit status.
///
/// Throw it from a command implementation: the runner prints `voicememo: ` + ``message`` on
/// standard error and exits with ``exitCode``. Any other error thrown by an implementation is
/// printed with `String(describing:)` and exits 1; a thrown ``UsageError`` exits 2 with the
/// usual hint to run `--help`.
public struct CommandFailure: Error, Sendable, Equatable {
    /// One line for a person, without the `voicememo: ` prefix.
    public let message: String
    /// Usually ``ExitCode/failure``.
    public let exitCode: ExitCode

    public init(_ message: String, exitCode: ExitCode = .failure) {
        self.message = message
        self.exitCode = exitCode
    }
}
