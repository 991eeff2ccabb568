import ArgumentParsing

/// Runs one `voicememo` command line: picks the subcommand, parses, prints help, usage errors
/// and failures, and returns the exit status.
///
/// All output goes through the context's console, so tests drive it with argument arrays.
struct CommandLineRunner {
    let context: CommandContext

    /// Every subcommand, in the order the top-level help lists them. Adding a subcommand is its
    /// folder under `Subcommands/` and one line here; help, man page and completions follow.
    static let subcommands: [Subcommand] = [
        Subcommand(RecordCommand.self),
        Subcommand(MeterCommand.self),
        Subcommand(ListCommand.self),
        Subcommand(PlayCommand.self),
        Subcommand(RenameCommand.self),
        Subcommand(TagCommand.self),
        Subcommand(StarCommand.self),
        Subcommand(UnstarCommand.self),
        Subcommand(DeleteCommand.self),
        Subcommand(RestoreCommand.self),
        Subcommand(PurgeCommand.self),
        Subcommand(RecoverCommand.self),
        Subcommand(ExportCommand.self),
        Subcommand(MarkCommand.self),
        Subcommand(ToggleCommand.self),
        Subcommand(PauseCommand.self),
        Subcommand(StopCommand.self),
        Subcommand(StatusCommand.self),
        Subcommand(TrimCommand.self),
        Subcommand(SplitCommand.self),
        Subcommand(EnhanceCommand.self),
        Subcommand(WaveformCommand.self),
        Subcommand(DevicesCommand.self),
        Subcommand(GainCommand.self),
        Subcommand(AnalyzeCommand.self),
        Subcommand(TranscribeCommand.self),
        Subcommand(SearchCommand.self),
    ]

    /// Runs `arguments`, which exclude the program name.
    func run(_ arguments: [String]) -> ExitCode {
        guard let first = arguments.first else { return runApp([]) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h":
            context.console.writeOutput(TopLevelHelp.text(subcommands: Self.subcommands))
            return .success
        case "--version":
            context.console.printLine("voicememo \(VoiceMemoCLI.version)")
            context.console.printLine(VoiceMemoCLI.libraryVersions())
            return .success
        case "help":
            return runHelp(rest)
        case "--generate-man-page":
            guard rest.isEmpty else { return reportUsageError(.unexpectedArgument(rest[0]), in: nil) }
            context.console.writeOutput(ManPage.render(Manual.program, date: Manual.date))
            return .success
        case "--generate-completion":
            return generateCompletion(rest)
        case "--complete-memos":
            return MemoCompletion.run(context: context)
        default:
            break
        }
        if first.hasPrefix("-"), AppCommand.accepts(first) {
            return runApp(arguments)
        }
        if first.hasPrefix("-") {
            let suggestion = Suggestion.nearest(
                to: String(first.drop(while: { $0 == "-" })), among: ["help", "version"])
            return reportUsageError(.unknownOption(first, suggestion: suggestion.map { "--" + $0 }), in: nil)
        }
        guard let subcommand = Self.subcommands.first(where: { $0.name == first }) else {
            return reportUnknownSubcommand(first)
        }
        return run(subcommand, arguments: rest)
    }

    /// Runs `subcommand` with `arguments`, the ones after its name.
    func run(_ subcommand: Subcommand, arguments: [String]) -> ExitCode {
        do {
            switch try ArgumentParser(subcommand.specification).parse(arguments) {
            case .helpRequested:
                context.console.writeOutput(help(for: subcommand))
                return .success
            case .arguments(let parsed):
                return try subcommand.perform(parsed, context)
            }
        } catch {
            return report(error, in: subcommand)
        }
    }

    /// The full-screen app, with its options (`--source`, `--format`, `--rate`, `--channels`).
    private func runApp(_ arguments: [String]) -> ExitCode {
        do {
            let options = try AppCommand.options(from: arguments)
            return try AppRunner.run(options, context: context)
        } catch {
            return report(error, in: nil)
        }
    }

    /// `voicememo --generate-completion bash|zsh|fish`.
    private func generateCompletion(_ arguments: [String]) -> ExitCode {
        let shells = CompletionScript.Shell.allCases.map(\.rawValue)
        guard let name = arguments.first else {
            return reportUsageError(.missingValue(option: "--generate-completion", valueName: "SHELL"), in: nil)
        }
        guard let shell = CompletionScript.Shell(rawValue: name) else {
            return reportUsageError(
                .invalidValue(
                    argument: "--generate-completion", value: name,
                    rejection: .notAChoice(choices: shells, suggestion: Suggestion.nearest(to: name, among: shells))),
                in: nil)
        }
        guard arguments.count == 1 else { return reportUsageError(.unexpectedArgument(arguments[1]), in: nil) }
        context.console.writeOutput(CompletionScript.render(Manual.program, for: shell))
        return .success
    }

    /// `voicememo help [SUBCOMMAND]`.
    private func runHelp(_ arguments: [String]) -> ExitCode {
        guard let name = arguments.first, name != "help" else {
            context.console.writeOutput(TopLevelHelp.text(subcommands: Self.subcommands))
            return .success
        }
        guard arguments.count == 1 else {
            return reportUsageError(.unexpectedArgument(arguments[1]), in: nil)
        }
        guard let subcommand = Self.subcommands.first(where: { $0.name == name }) else {
            return reportUnknownSubcommand(name)
        }
        context.console.writeOutput(help(for: subcommand))
        return .success
    }

    private func help(for subcommand: Subcommand) -> String {
        HelpFormatter.help(for: subcommand.specification, commandPath: "voicememo " + subcommand.name)
    }

    private func reportUnknownSubcommand(_ name: String) -> ExitCode {
        let suggestion = Suggestion.nearest(to: name, among: Self.subcommands.map(\.name) + ["help"])
        return reportUsageError(.unknownCommand(name, suggestion: suggestion), in: nil)
    }

    /// Prints `error` the way its kind deserves and returns the matching exit status.
    private func report(_ error: any Error, in subcommand: Subcommand?) -> ExitCode {
        switch error {
        case let usageError as UsageError:
            return reportUsageError(usageError, in: subcommand)
        case let failure as CommandFailure:
            context.console.printErrorMessage(failure.message)
            return failure.exitCode
        default:
            context.console.printErrorMessage(String(describing: error))
            return .failure
        }
    }

    /// Prints the usage error and the line saying where to read the usage; returns 2.
    private func reportUsageError(_ error: UsageError, in subcommand: Subcommand?) -> ExitCode {
        context.console.printErrorMessage(error.message)
        let helpCommand = subcommand.map { "voicememo \($0.name) --help" } ?? "voicememo --help"
        context.console.writeError("Run '\(helpCommand)' for usage.\n")
        return .usageError
    }
}
