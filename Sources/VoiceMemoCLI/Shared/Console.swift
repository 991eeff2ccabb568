import Vocabulary
import Platform
import Foundation
import Terminal

/// Where a command writes: standard output for results and help, standard error for messages.
///
/// Commands never write to the process's streams directly, so tests can capture what they
/// print by passing a console of their own.
public struct Console: Sendable {
    /// Writes text to standard output, as is.
    private let rawOutput: @Sendable (String) -> Void
    /// Writes text to standard error, as is.
    private let rawError: @Sendable (String) -> Void
    /// Standard output is a terminal (live lines redraw in place there).
    public let isOutputTerminal: Bool
    /// Standard error is a terminal.
    public let isErrorTerminal: Bool
    /// The locale is not UTF-8 (`LANG=C`): VoiceMemo's own symbols in text for people are
    /// written in ASCII (`LocaleCharset.asciiSymbols`; titles and paths pass through as they
    /// are); JSON stays UTF-8, as JSON is.
    public let asciiOnly: Bool
    /// Standard input is a terminal: a person is there to answer a question.
    public let isInputTerminal: Bool
    /// Reads one line of standard input (without its newline); `nil` at its end.
    private let readInputLine: @Sendable () -> String?
    /// Writes bytes to standard output as they are (a sound file streamed into a pipe);
    /// returns 0, or the `errno` of the write that failed (`EPIPE`: the reader left).
    private let rawOutputBytes: @Sendable (UnsafeRawBufferPointer) -> Int32

    public init(
        writeOutput: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        isOutputTerminal: Bool = false,
        isErrorTerminal: Bool = false,
        asciiOnly: Bool = false,
        isInputTerminal: Bool = false,
        readLine: @escaping @Sendable () -> String? = { nil },
        writeOutputBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Int32 = { _ in 0 }
    ) {
        self.rawOutputBytes = writeOutputBytes
        self.rawOutput = writeOutput
        self.rawError = writeError
        self.isOutputTerminal = isOutputTerminal
        self.isErrorTerminal = isErrorTerminal
        self.asciiOnly = asciiOnly
        self.isInputTerminal = isInputTerminal
        self.readInputLine = readLine
    }

    /// The process's standard output and standard error, unbuffered, in ASCII when the
    /// environment's locale is not UTF-8 (`LocaleCharset`, the one place that decides).
    /// Standard error goes through `StandardErrorRoute`, so a message is not lost while a
    /// decoder's own chatter is silenced on another thread.
    public static let standard = Console(
        writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeError: { StandardErrorRoute.write($0) },
        isOutputTerminal: isatty(STDOUT_FILENO) == 1,
        isErrorTerminal: isatty(STDERR_FILENO) == 1,
        asciiOnly: !LocaleCharset.isUTF8,
        isInputTerminal: isatty(STDIN_FILENO) == 1,
        readLine: { Swift.readLine(strippingNewline: true) },
        writeOutputBytes: { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDOUT_FILENO, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        })

    /// Writes `bytes` to standard output as they are.
    /// - Returns: 0, or the `errno` of the write that failed.
    public func writeOutputBytes(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        rawOutputBytes(bytes)
    }

    /// Writes text for people to standard output (ASCII symbols under a non-UTF-8 locale).
    public func writeOutput(_ text: String) {
        rawOutput(asciiOnly ? LocaleCharset.asciiSymbols(text) : text)
    }

    /// Writes text for people to standard error (ASCII symbols under a non-UTF-8 locale).
    public func writeError(_ text: String) {
        rawError(asciiOnly ? LocaleCharset.asciiSymbols(text) : text)
    }

    /// Writes `line` and a newline to standard output.
    /// On a terminal every control in it is shown visibly (`TerminalText.safeLines`): a path
    /// or a title from anyone never reaches the terminal raw; a script reading a pipe gets the
    /// text as it is.
    public func printLine(_ line: String) {
        writeOutput((isOutputTerminal ? TerminalText.safeLines(line) : line) + "\n")
    }

    /// Writes a line of JSON and a newline to standard output, always as UTF-8 (JSON's
    /// encoding: a script reading it gets every title as it is).
    public func printJSON(_ line: String) {
        rawOutput(line + "\n")
    }

    /// Asks `question` on standard error and reads the answer: `true` only for "y" or "yes"
    /// (any case); the end of the input or anything else is no.
    public func confirm(_ question: String) -> Bool {
        writeError(question + " [y/N] ")
        guard let answer = readInputLine() else {
            writeError("\n")
            return false
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Writes `voicememo: ` + `message` and a newline to standard error.
    /// Every control in `message` but its line breaks is shown visibly (`TerminalText.safeLines`):
    /// messages carry paths, titles and device names from anyone.
    public func printErrorMessage(_ message: String) {
        writeError("voicememo: " + TerminalText.safeLines(message) + "\n")
    }
}
