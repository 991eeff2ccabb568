extension KeyHelp {
    /// The footer's keys while a memo plays (or is paused) on the memo table.
    static func playbackFooter(isPaused: Bool) -> [(String, String)] {
        [
            ("space", isPaused ? "resume" : "pause"), ("← →", "seek 5 s"), ("s", "stop"), ("⏎", "play selected"),
            ("r", "record"), ("?", "help"), ("q", "quit"),
        ]
    }

    /// The footer's keys for the state: playback's while a memo plays on the memo
    /// table, else those of the mode.
    static func footer(for state: AppState) -> [(String, String)] {
        if state.mode == .browsing, let playback = state.playback {
            return playbackFooter(isPaused: playback.isPaused)
        }
        if state.mode == .help, HelpLayout(state).scrolls {
            return [("↑↓ PgUp PgDn", "scroll"), ("any other key", "closes")]
        }
        return footer(for: state.mode)
    }
}
