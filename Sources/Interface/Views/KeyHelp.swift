/// Every key, for the help screen and the footer: one list, so they cannot disagree.
enum KeyHelp {
    /// (keys, what they do), in the order the help screen lists them.
    static let all: [(String, String)] = [
        ("r", "record; again: pause / resume"),
        ("s", "stop and save (then name the memo); stop playback or a stream"),
        ("c", "reset the clip indicator and peak hold"),
        ("m", "meter: digital peak → PPM I → PPM II → VU → loudness"),
        ("↑ ↓  j k", "select a memo"),
        ("PgUp PgDn", "page through memos"),
        ("Home End  g G", "first / last memo (Home End: while nothing plays)"),
        ("/", "find memos by title or spoken words (Esc clears)"),
        ("T", "transcript of the selected memo (the word heard lights up)"),
        ("e", "rename the selected memo"),
        ("d", "delete the selected memo (to Recently Deleted)"),
        ("E", "export the selected memo to a file (its extension names the format)"),
        ("I", "details of the selected memo: its file, format, levels and state"),
        ("a", "order of the memos: newest first → by title → longest first"),
        ("u", "undo the last delete, rename, trim or split"),
        ("t", "Recently Deleted: ⏎ (or r) restore, p purge, Esc back"),
        ("i", "choose the input (microphones, test tone)"),
        ("O", "choose where memos play (the playback device)"),
        ("o", "play a stream: type its http(s) URL (s, space, Esc stop it)"),
        ("R", "record the stream that plays into a memo (s stops and names it)"),
        ("⏎", "play the selected memo (a word match: from that word)"),
        ("space", "pause / resume playback (a stream: stop it)"),
        ("← →  H L", "seek back / forward 5 s (H L: 30 s) while playing"),
        ("Home End", "while playing: the memo's start / end (else the first / last memo)"),
        ("[ ]", "playback speed −/+ 0.1× (0.5× to 3×, pitch kept)"),
        ("{ }", "playback pitch −/+ 1 semitone (±12, speed kept)"),
        ("- + =", "playback volume −/+ 10 % (0 to 150 %; above 100 % can clip)"),
        ("x", "skip silence while playing: on / off"),
        ("0 … 9", "jump to 0 % … 90 % of the memo that plays"),
        (", .", "seek back / forward 1 s while playing"),
        ("b", "marker at the play head, or at the recording's time"),
        ("n N", "next / previous marker while playing"),
        ("( )", "in / out point at the play head (for X)"),
        ("P", "preview what X keeps: play from in, pause at out"),
        ("X", "trim the memo to in … out (asks; the original to Recently Deleted)"),
        ("S", "split the memo that plays in two at the play head (asks)"),
        ("Z", "remove the pauses: each to 0.5 s (asks; the original to Recently Deleted)"),
        ("v", "voice activation: record each utterance as a memo; again: off"),
        ("V", "settings: voice activation, noise alert (level, time)"),
        ("< >  M", "input's capture volume -/+ 1 dB (or 1 %); M mute / unmute"),
        ("?", "this help"),
        ("q", "quit (asks while recording; stopping saves)"),
    ]

    /// The footer's keys for the memo table, most important first.
    static let footer: [(String, String)] = [
        ("r", "record/pause"), ("s", "stop"), ("⏎", "play"), ("v", "voice"), ("e", "rename"), ("d", "delete"),
        ("u", "undo"), ("/", "find"), ("T", "words"), ("t", "deleted"), ("i", "input"), ("E", "export"), ("O", "output"), ("o", "stream"), ("m", "meter"), ("V", "settings"),
        ("< >", "gain"), ("M", "mute"), ("c", "clear clip"), ("I", "info"), ("a", "order"), ("?", "help"), ("q", "quit"),
    ]

    /// The footer's keys in each mode.
    static func footer(for mode: Mode) -> [(String, String)] {
        switch mode {
        case .browsing: footer
        case .filtering: [("⏎", "done"), ("Esc", "clear"), ("↑↓", "select")]
        case .renaming(_, let field) where field.isSelected:
            [("type", "replaces it"), ("⏎", "save"), ("← →", "edit it"), ("⌫", "clear"), ("Esc", "keep the title")]
        case .renaming: [("⏎", "save"), ("Esc", "keep the title"), ("← →", "move"), ("⌫", "delete")]
        case .exporting: [("⏎", "export"), ("Esc", "cancel"), ("← →", "move"), ("⌫", "delete")]
        case .openingStream: [("⏎", "play"), ("Esc", "cancel"), ("← →", "move"), ("⌫", "delete")]
        case .confirmingDelete, .confirmingPurge, .confirmingQuit, .confirmingEdit: [("y", "yes"), ("n", "no")]
        case .help, .details: [("any key", "closes")]
        case .recentlyDeleted: [("⏎", "restore"), ("p", "purge"), ("↑↓", "select"), ("Esc", "back"), ("?", "help")]
        case .pickingInput, .pickingOutput: [("⏎", "choose"), ("↑↓", "select"), ("Esc", "cancel")]
        case .voiceSettings: [("↑↓", "choose"), ("← →  - +", "change"), ("Esc", "done")]
        case .transcript:
            [("⏎", "play from the top line"), ("space", "pause"), ("← →", "seek"), ("s", "stop"), ("↑↓", "scroll"), ("Esc", "close")]
        }
    }
}
