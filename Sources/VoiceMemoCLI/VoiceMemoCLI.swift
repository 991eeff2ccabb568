import Platform
import Audio
import Foundation
import MemoLibrary
import AppRuntime
import SoundFiles
import Terminal

/// The entry point of the `voicememo` command line.
public enum VoiceMemoCLI {
    public static let version = Product.version

    public static func libraryVersions() -> String {
        "alsa-lib \(ALSALibrary.version), \(SoundFileLibrary.version), \(CursesLibrary.version), SQLite \(SQLiteLibrary.version)"
    }

    /// Runs a whole command line and returns the process's exit status.
    ///
    /// - Parameters:
    ///   - arguments: `CommandLine.arguments`, the program name first.
    ///   - environment: the environment variables.
    ///   - console: where to print.
    public static func main(
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard
    ) -> Int32 {
        if let refusal = OpenFileLimit.ensure() {
            console.printErrorMessage(refusal)
            return ExitCode.failure.rawValue
        }
        return run(
            Array(arguments.dropFirst()),
            context: CommandContext(console: console, environment: environment)
        ).rawValue
    }

    /// Runs the arguments after the program name and returns the exit code.
    public static func run(_ arguments: [String], context: CommandContext) -> ExitCode {
        CommandLineRunner(context: context).run(arguments)
    }
}
