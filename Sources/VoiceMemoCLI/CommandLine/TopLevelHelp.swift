import ArgumentParsing

/// The help text of `voicememo` itself: what it is, its subcommands, its options.
enum TopLevelHelp {
    static func text(subcommands: [Subcommand]) -> String {
        let width = TextWrapping.standardWidth
        var lines = TextWrapping.wrap(
            "voicememo \(VoiceMemoCLI.version): record voice memos at the terminal, with a live "
                + "level meter.", width: width)
        lines += ["", "Usage: voicememo [SUBCOMMAND] [OPTIONS]", ""]
        lines += TextWrapping.wrap(
            "With no subcommand, voicememo opens the full-screen recorder.", width: width)
        lines += ["", "Subcommands:"]
        var rows = subcommands.map { (label: $0.name, text: $0.specification.abstract) }
        rows.append((label: "help", text: "Show the help of a subcommand: voicememo help record."))
        lines += TextWrapping.columns(rows)
        lines += ["", "Options of the full-screen recorder:"]
        lines += HelpFormatter.optionLines(AppCommand.specification.options)
        lines += ["", "Options:"]
        lines += TextWrapping.columns([
            (label: "-h, --help", text: "Show this help."),
            (label: "    --version", text: "Show the version of voicememo and of its libraries."),
            (label: "    --generate-man-page", text: "Print the manual page (roff), made from the same declarations as this help."),
            (label: "    --generate-completion SHELL", text: "Print a completion script for bash, zsh or fish."),
            (label: "    --complete-memos", text: "Print every memo's id, then every title, one per line (what the completions offer)."),
        ])
        lines += [""]
        lines += TextWrapping.wrap("Run 'voicememo SUBCOMMAND --help' for a subcommand's options.", width: width)
        lines += [""]
        lines += TextWrapping.wrap(
            "Manual: man voicememo after 'sudo make install'; before, read it with:", width: width)
        lines += ["  voicememo --generate-man-page | man -l -"]
        return lines.joined(separator: "\n") + "\n"
    }
}
