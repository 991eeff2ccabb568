/// What a finished subprocess did.
struct ProcessOutcome: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when ``wasSignalled``.
    let status: Int32
    /// Whether the process ended by a signal rather than by exiting.
    let wasSignalled: Bool
    /// Whether it ran past its timeout and was terminated.
    let timedOut: Bool
    /// Everything written to standard output, decoded as UTF-8.
    let standardOutput: String
    /// Everything written to standard error, decoded as UTF-8.
    let standardError: String

    var description: String {
        "status \(status)\(wasSignalled ? " (signal)" : "")\(timedOut ? " (timed out)" : "")\n"
            + "stdout: \(standardOutput)\nstderr: \(standardError)"
    }
}
