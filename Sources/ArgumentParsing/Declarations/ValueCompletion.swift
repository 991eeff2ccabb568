/// What a shell may offer when completing a value, as the man page and the completion
/// scripts read it from the declarations (so they cannot drift from `--help`).
public enum ValueCompletion: Sendable, Equatable {
    /// Nothing to offer (free text, a number, a duration).
    case none
    /// Exactly these words (a format, a meter mode).
    case choices([String])
    /// A file name.
    case file
    /// A memo of the library: the completion script asks the program for them.
    case memo
    /// A memo or a file name.
    case memoOrFile
    /// These words, or text after one of them (`alsa:`, `tone:`, `file:` then a path).
    case prefixes([String])
}
