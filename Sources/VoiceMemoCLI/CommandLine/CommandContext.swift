/// What a running command may use from its surroundings, passed in rather than read globally.
public struct CommandContext: Sendable {
    /// Where to print.
    public let console: Console
    /// The environment variables (`VOICEMEMO_HOME`, `XDG_DATA_HOME`, `NO_COLOR`, …).
    public let environment: [String: String]

    public init(console: Console, environment: [String: String]) {
        self.console = console
        self.environment = environment
    }

    /// Whether colour may be used: not when `NO_COLOR` is set to anything non-empty
    /// (https://no-color.org).
    public var allowsColor: Bool {
        (environment["NO_COLOR"] ?? "").isEmpty
    }
}
