import Foundation

/// Where a command writes: standard output for results and help, standard error for messages.
///
/// Commands never write to the process's streams directly, so tests can capture what they
/// print by passing a console of their own.
public struct Console: Sendable {
    /// Writes text to standard output, as is.
    public let writeOutput: @Sendable (String) -> Void
    /// Writes text to standard error, as is.
    public let writeError: @Sendable (String) -> Void
    /// Standard output is a terminal (live lines redraw in place there).
    public let isOutputTerminal: Bool
    /// Standard error is a terminal.
    public let isErrorTerminal: Bool

    public init(
        writeOutput: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        isOutputTerminal: Bool = false,
        isErrorTerminal: Bool = false
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.isOutputTerminal = isOutputTerminal
        self.isErrorTerminal = isErrorTerminal
    }

    /// The process's standard output and standard error, unbuffered.
    public static let standard = Console(
        writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeError: { FileHandle.standardError.write(Data($0.utf8)) },
        isOutputTerminal: isatty(STDOUT_FILENO) == 1,
        isErrorTerminal: isatty(STDERR_FILENO) == 1)

    /// Writes `line` and a newline to standard output.
    public func printLine(_ line: String) {
        writeOutput(line + "\n")
    }

    /// Writes `voicememo: ` + `message` and a newline to standard error.
    public func printErrorMessage(_ message: String) {
        writeError("voicememo: " + message + "\n")
    }
}
