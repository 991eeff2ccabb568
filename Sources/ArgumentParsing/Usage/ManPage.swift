/// Writes a program's manual page (man(7) macros, roff) from its declarations, so the
/// manual lists exactly the commands, options and value choices that `--help` does.
public enum ManPage {
    /// The page, section 1, ending with a newline.
    ///
    /// - Parameter date: the page's date for its footer (`2026-12-01`).
    public static func render(_ program: ProgramDescription, date: String) -> String {
        var lines: [String] = []
        lines.append(".TH \(quoted(program.name.uppercased())) 1 \(quoted(date)) \(quoted("\(program.name) \(program.version)")) \(quoted("User Commands"))")
        lines.append(".SH NAME")
        lines.append(escape(program.name) + " \\- " + escape(program.summary))

        lines.append(".SH SYNOPSIS")
        lines.append(".B " + escape(program.name))
        lines.append("[\\fIOPTIONS\\fR]")
        lines.append(".br")
        lines.append(".B " + escape(program.name))
        lines.append("\\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]")

        lines.append(".SH DESCRIPTION")
        for (index, paragraph) in program.description.enumerated() {
            if index > 0 { lines.append(".PP") }
            lines.append(escape(paragraph))
        }

        lines.append(".SH OPTIONS")
        lines.append("With no subcommand:")
        for option in program.globalOptions + ProgramDescription.standardOptions {
            lines += optionEntry(option)
        }

        lines.append(".SH COMMANDS")
        for command in program.commands {
            lines.append(".SS " + quoted(usage(program.name, command)))
            lines.append(escape(command.abstract))
            if let discussion = command.discussion {
                for paragraph in discussion.split(separator: "\n\n") {
                    lines.append(".PP")
                    lines.append(escape(String(paragraph)))
                }
            }
            for positional in command.positionals {
                lines.append(".TP")
                lines.append("\\fI" + escape(positional.name) + "\\fR")
                lines.append(escape(positional.help) + choicesSentence(positional.completion, unlessIn: positional.help))
            }
            for option in command.optionsIncludingHelp {
                lines += optionEntry(option)
            }
        }

        for section in program.sections {
            lines.append(".SH " + escape(section.title.uppercased()))
            for entry in section.entries {
                if let term = entry.term {
                    lines.append(".TP")
                    lines.append("\\fB" + escape(term) + "\\fR")
                } else {
                    lines.append(".PP")
                }
                lines.append(escape(entry.text))
            }
        }

        if !program.examples.isEmpty {
            lines.append(".SH EXAMPLES")
            for example in program.examples {
                lines.append(".TP")
                lines.append("\\fB" + escape(example.command) + "\\fR")
                lines.append(escape(example.text))
            }
        }
        lines.append(".SH SEE ALSO")
        lines.append("\\fBarecord\\fR(1), \\fBaplay\\fR(1), \\fBalsamixer\\fR(1), \\fBsox\\fR(1)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `voicememo export [OPTIONS] MEMO PATH`, as a subsection heading.
    static func usage(_ program: String, _ command: CommandSpecification) -> String {
        HelpFormatter.usage(for: command, commandPath: "\(program) \(command.name)")
    }

    private static func optionEntry(_ option: OptionSpecification) -> [String] {
        var label = option.shortName.map { "\\fB\\-\($0)\\fR, " } ?? ""
        label += "\\fB" + escape(option.longForm) + "\\fR"
        if let valueName = option.valueName { label += " \\fI" + escape(valueName) + "\\fR" }
        var text = escape(option.help)
        if let defaultDescription = option.defaultDescription { text += " (default: \(escape(defaultDescription)))" }
        return [".TP", label, text + choicesSentence(option.completion, unlessIn: option.help)]
    }

    /// " One of: a, b, c." for a fixed set of choices that `help` does not already name, else
    /// nothing.
    private static func choicesSentence(_ completion: ValueCompletion, unlessIn help: String) -> String {
        guard case .choices(let choices) = completion, !choices.isEmpty,
            !choices.allSatisfy({ help.contains($0) })
        else { return "" }
        return " One of: " + choices.map(escape).joined(separator: ", ") + "."
    }

    /// Text made safe for roff: backslashes and hyphens escaped, and a line that would start
    /// with a control character (`.` or `'`) protected with `\&`.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "\n": escaped += "\n"
            default: escaped.append(character)
            }
        }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.first == "." || line.first == "'" ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacing("\"", with: "\"\"") + "\""
    }
}
