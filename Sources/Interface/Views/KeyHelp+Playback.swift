extension KeyHelp {
    /// The footer's keys while a memo plays (or is paused) on the memo table, most important
    /// first (at 80 columns it shows up to `[ ] speed`; the help screen lists them all).
    static func playbackFooter(isPaused: Bool) -> [(String, String)] {
        [
            ("space", isPaused ? "resume" : "pause"), ("← →", "seek 5 s"), ("s", "stop"), ("( ) X", "trim"), ("S", "split"),
            ("[ ]", "speed"),
            ("- +", "vol"), ("{ }", "pitch"), ("x", "skip"), ("b", "mark"), ("n N", "next/prev mark"), ("P", "preview trim"),
            ("0-9", "jump"), (", .", "1 s"), ("H L", "30 s"), ("Home End", "start/end"), ("Z", "cut pauses"),
            ("⏎", "play selected"), ("r", "record"), ("?", "help"), ("q", "quit"),
        ]
    }

    /// The footer's keys for the state: playback's while a memo plays on the memo
    /// table, the table's with `b` while recording, else those of the mode.
    static func footer(for state: AppState) -> [(String, String)] {
        if state.mode == .browsing, let playback = state.playback {
            return playbackFooter(isPaused: playback.isPaused)
        }
        if state.mode == .browsing, state.stream != nil, state.recording == .idle {
            return [
                ("s", "stop"), ("R", "record it"), ("o", "other stream"), ("⏎", "play memo"), ("r", "record input"),
                ("m", "meter"), ("?", "help"), ("q", "quit"),
            ]
        }
        if state.mode == .help, HelpLayout(state).scrolls {
            return [("↑↓ PgUp PgDn", "scroll"), ("any other key", "closes")]
        }
        if state.mode == .browsing, state.recording != .idle {
            var keys = footer(for: state.mode)
            keys.insert(("b", "mark"), at: min(2, keys.count))
            return keys
        }
        return footer(for: state.mode)
    }
}
