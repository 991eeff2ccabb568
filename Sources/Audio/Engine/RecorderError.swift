/// Why a recorder refused to start or stopped early.
///
/// `message` is the sentence a person reads: it names the cause (the device, the
/// file, the OS error) and, for bad settings, what would work.
public struct RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The settings or the output path were refused before anything was created.
        case settings
        /// The input could not be opened or failed while capturing.
        case input
        /// The input device disappeared mid-recording.
        case disconnected
        /// The file could not be created or written (disk full, size limit, permissions).
        case file
        /// The call does not fit the recorder's state (e.g. recording after stop).
        case state
    }

    public var kind: Kind
    public var message: String
    /// What to try next, in command-line terms (`--source …`); the app words its own.
    public var hint: String?
    /// The typed failure underneath, when a C library or the OS gave one: decide on this,
    /// never on `message`.
    public var cause: ErrorCause?

    public init(_ kind: Kind, _ message: String, hint: String? = nil, cause: ErrorCause? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.cause = cause
    }

    /// The message with the hint, for the command line.
    public var messageWithHint: String {
        hint.map { message + "; " + $0 } ?? message
    }

    public var description: String { message }
}
