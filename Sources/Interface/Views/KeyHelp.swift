/// What the help screen and the footers say of the keys. The memo table's come from its key
/// table (`KeyTable.memoTable`); the other modes' footers are here, beside their handlers' modes.
enum KeyHelp {
    /// The memo table's (keys, what they do), in the order the help screen lists them.
    static let all: [(String, String)] = KeyScreen.memoTable.helpEntries

    /// What the help screen lists now: the keys of the screen it was opened on.
    static func entries(_ state: AppState) -> [(String, String)] { state.helpScreen.helpEntries }

    /// The footer's keys for the memo table, most important first.
    static let footer: [(String, String)] = KeyTable.footer(in: .idle)

    /// The footer's keys for the state: on the memo table, those of what it is doing
    /// (recording, playing, paused, streaming: `KeyTable.footer(in:)`); else those of the mode.
    static func footer(for state: AppState) -> [(String, String)] {
        if state.mode == .help, HelpLayout(state).scrolls {
            return [("↑↓ PgUp PgDn", "scroll"), ("any other key", "closes")]
        }
        if state.mode == .browsing {
            return KeyTable.footer(in: FooterSpot.Situation(state), narrow: state.width < KeyTable.narrowFooterWidth)
        }
        if let screen = KeyScreen(state.mode), screen != .memoTable { return screen.footer }
        if case .exporting(_, let field) = state.mode { return exportFooter(field, podcast: state.exportsAtPodcastLoudness) }
        return footer(for: state.mode)
    }

    /// The export prompt's: what typing does to the selected name, `Tab` to complete the path,
    /// `^L` for the podcast loudness (or `off` again, the label saying "Export at -16 LUFS"),
    /// `^U` to clear the line.
    static func exportFooter(_ field: TextField, podcast: Bool) -> [(String, String)] {
        let loudness = ("^L", podcast ? "off" : "-16 LUFS")
        if field.isSelected {
            return [("type", "renames"), ("⏎", "export"), ("Tab", "complete"), loudness, ("Esc", "cancel"), ("^U", "clear"), ("← →", "edit")]
        }
        return [("⏎", "export"), ("Tab", "complete"), loudness, ("Esc", "cancel"), ("^U", "clear"), ("← →", "move"), ("⌫", "delete")]
    }

    /// The footer's keys in each mode.
    static func footer(for mode: Mode) -> [(String, String)] {
        switch mode {
        case .browsing: footer
        case .filtering: [("⏎", "done"), ("Esc", "clear"), ("↑↓", "select"), ("terms", "tag: is:starred said: before: after: longer: shorter:")]
        case .renaming(_, let field) where field.isSelected:
            [("type", "replaces it"), ("⏎", "save"), ("← →", "edit it"), ("⌫", "clear"), ("Esc", "keep the title")]
        case .renaming: [("⏎", "save"), ("Esc", "keep the title"), ("← →", "move"), ("⌫", "delete")]
        case .exporting(_, let field): exportFooter(field, podcast: false)
        case .openingStream: [("⏎", "play"), ("Esc", "cancel"), ("← →", "move"), ("⌫", "delete")]
        case .tagging: [("⏎", "save"), ("Esc", "cancel"), ("+tag -tag", "add, remove; words: the list"), ("← →", "move"), ("⌫", "delete")]
        case .labelingMarker(_, _, let field) where field.isSelected:
            [("type", "replaces it"), ("⏎", "save"), ("⌫", "clear"), ("Esc", "cancel")]
        case .labelingMarker: [("⏎", "save"), ("Esc", "cancel"), ("← →", "move"), ("⌫", "delete")]
        case .confirmingPurge, .confirmingQuit, .confirmingEdit: [("y", "yes"), ("n", "no")]
        case .help, .details: [("any key", "closes")]
        case .recentlyDeleted: KeyScreen.recentlyDeleted.footer
        case .pickingInput, .pickingOutput: [("⏎", "choose"), ("↑↓", "select"), ("Esc", "cancel")]
        case .voiceSettings: KeyScreen.voiceSettings.footer
        case .transcript: KeyScreen.transcript.footer
        }
    }
}
