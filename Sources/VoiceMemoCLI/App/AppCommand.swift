import ArgumentParsing

/// The full-screen app's options: `voicememo [--source S] [--format F] [--rate HZ] [--channels N] [--device D]
/// [--at TIME [--duration T]]`.
enum AppCommand {
    static let specification = CommandSpecification(
        name: "voicememo",
        abstract: "The full-screen recorder: a live level meter, record / pause / stop, the memo table.",
        options: [
            SharedArguments.source, RecordCommand.format, RecordCommand.rate, RecordCommand.channels, PlayCommand.device,
            RecordCommand.at, RecordCommand.duration,
        ])

    /// Whether `argument` (the first on the command line) is one of the app's options,
    /// so the command line means the app rather than a subcommand.
    static func accepts(_ argument: String) -> Bool {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        return specification.options.contains { option in
            name == "--" + option.name || option.shortName.map { name == "-" + String($0) } ?? false
        }
    }

    /// Parses the app's arguments.
    ///
    /// - Throws: `UsageError` naming the flag, the value and what is allowed.
    static func options(from arguments: [String]) throws -> AppOptions {
        guard !arguments.isEmpty else { return AppOptions() }
        switch try ArgumentParser(specification).parse(arguments) {
        case .helpRequested:
            return AppOptions()
        case .arguments(let parsed):
            var options = AppOptions(
                source: try parsed.value(of: SharedArguments.source),
                format: try parsed.value(of: RecordCommand.format),
                sampleRate: try parsed.value(of: RecordCommand.rate),
                channels: try parsed.value(of: RecordCommand.channels),
                playbackDevice: try parsed.value(of: PlayCommand.device))
            options.scheduledStart = try parsed.value(of: RecordCommand.at)
            if let duration = try parsed.value(of: RecordCommand.duration) {
                // The app records until `s`: a length is for the recording `--at` starts.
                guard options.scheduledStart != nil else {
                    throw UsageError.missingCompanion(option: RecordCommand.duration.longForm, requirement: RecordCommand.at.longForm)
                }
                options.duration = duration.seconds
            }
            return options
        }
    }
}
