/// Writes the help text of a command from its declarations.
///
/// Layout: the abstract, the usage line, the discussion, the positional arguments and the
/// options with their value names and defaults, wrapped to ``TextWrapping/standardWidth``.
/// Plain text only: no colour or other escape sequences.
public enum HelpFormatter {
    /// The full help text of `specification`, ending with a newline.
    ///
    /// - Parameter commandPath: how the command is invoked, e.g. `voicememo record`.
    public static func help(for specification: CommandSpecification, commandPath: String) -> String {
        let width = TextWrapping.standardWidth
        var lines = TextWrapping.wrap(specification.abstract, width: width)
        lines += ["", "Usage: " + usage(for: specification, commandPath: commandPath)]
        if let discussion = specification.discussion {
            lines += [""] + TextWrapping.wrap(discussion, width: width)
        }
        if !specification.positionals.isEmpty {
            lines += ["", "Arguments:"]
            lines += TextWrapping.columns(specification.positionals.map { ($0.name, $0.help) })
        }
        lines += ["", "Options:"]
        lines += optionLines(specification.optionsIncludingHelp)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The usage line without `Usage: `, e.g. `voicememo export [OPTIONS] MEMO PATH`.
    public static func usage(for specification: CommandSpecification, commandPath: String) -> String {
        var words = [commandPath]
        if !specification.options.isEmpty { words.append("[OPTIONS]") }
        for positional in specification.positionals {
            let name = positional.name + (positional.takesTheRest ? "..." : "")
            words.append(positional.isOptional ? "[\(name)]" : name)
        }
        return words.joined(separator: " ")
    }

    /// The option rows of a help text (label and explanation, wrapped in two columns).
    public static func optionLines(_ options: [OptionSpecification]) -> [String] {
        TextWrapping.columns(options.map { (label(for: $0), text(for: $0)) })
    }

    /// `-d, --duration T` or `    --delay T`.
    private static func label(for option: OptionSpecification) -> String {
        let short = option.shortName.map { "-\($0), " } ?? "    "
        let value = option.valueName.map { " " + $0 } ?? ""
        return short + option.longForm + value
    }

    private static func text(for option: OptionSpecification) -> String {
        guard let defaultDescription = option.defaultDescription else { return option.help }
        return option.help + " (default: \(defaultDescription))"
    }
}
