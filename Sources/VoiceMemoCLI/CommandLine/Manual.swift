import ArgumentParsing

/// `voicememo` as its man page and shell completions describe it: the commands' own
/// declarations (the same ones `--help` prints) and the few things only a manual says.
enum Manual {
    static var program: ProgramDescription {
        ProgramDescription(
            name: "voicememo", version: VoiceMemoCLI.version,
            summary: "record voice memos at the terminal, with a live level meter",
            description: [
                "With no subcommand, voicememo opens a full-screen, keyboard-driven recorder: a live "
                    + "LED-style level meter per input channel, a timer, and the table of memos, which "
                    + "can be played, renamed, deleted and restored. Every key the screen accepts is "
                    + "listed on it; press ? for help.",
                "Everything the screen does can also be scripted with the subcommands below. A MEMO is "
                    + "a memo's id or a unique prefix of its title.",
            ],
            globalOptions: AppCommand.specification.options,
            commands: CommandLineRunner.subcommands.map(\.specification),
            sections: [
                .init(title: "Files", entries: [
                    (term: "$VOICEMEMO_HOME, else $XDG_DATA_HOME/voicememo, else ~/.local/share/voicememo",
                     text: "The library: one audio file per memo, index.sqlite3 (the index, rebuilt from the "
                        + "files' tags when lost), .trash/ (Recently Deleted) and .locks/."),
                    (term: "$XDG_CONFIG_HOME/voicememo/config, else ~/.config/voicememo/config",
                     text: "The configuration: key = value lines (format, rate, channels, source, meter, "
                        + "voice-activation, noise-alert and playback defaults, the table's order, auto_title); flags override it. "
                        + "A missing file is fine. Settings changed in the app are kept in a block at its end, after "
                        + "the line \"# set in the app\"; the lines above it are left as they are."),
                    (term: "$XDG_RUNTIME_DIR/voicememo/NAME.sock, else /tmp/voicememo-UID/NAME.sock",
                     text: "The library's control socket, served while the app or a record runs (NAME from the "
                        + "library folder's path): toggle, pause, stop, mark and status talk to it."),
                    (term: "$XDG_STATE_HOME/voicememo/NAME.log, else ~/.local/state/voicememo/NAME.log",
                     text: "The output of the recording toggle last started in the background."),
                ]),
                .init(title: "Environment", entries: [
                    (term: "VOICEMEMO_HOME", text: "The library folder."),
                    (term: "XDG_DATA_HOME, XDG_CONFIG_HOME", text: "Where the library and the configuration live when VOICEMEMO_HOME is not set."),
                    (term: "XDG_RUNTIME_DIR, XDG_STATE_HOME", text: "Where the control socket and the background recording's log are."),
                    (term: "NO_COLOR", text: "When set and not empty, the screen and the messages use no colour."),
                    (term: "ALSA_CONFIG_PATH", text: "ALSA's configuration, as for arecord: device names given with --source alsa:NAME are looked up there."),
                    (term: "PULSE_SERVER", text: "The sound server (PulseAudio, or PipeWire's pipewire-pulse) that devices lists and --source pulse:NAME records from, and that the ALSA pulse device talks to."),
                ]),
                .init(title: "Exit status", entries: [
                    (term: "0", text: "Done; also after SIGINT, SIGTERM or SIGHUP stopped a recording (the memo is kept)."),
                    (term: "1", text: "A runtime failure: a device, the disk, a file, the library; for search, no memo matched (as grep)."),
                    (term: "2", text: "A usage error: the message names the flag, the value and what is allowed."),
                    (term: "130", text: "Interrupted before anything was kept."),
                ]),
                .init(title: "Shell completion", entries: [
                    (term: nil, text: "voicememo --generate-completion bash|zsh|fish prints a completion script, and "
                        + "voicememo --generate-man-page this page; make install installs both. Memo ids and "
                        + "titles are completed from the library (voicememo --complete-memos)."),
                ]),
            ],
            examples: [
                (command: "voicememo", text: "Open the recorder: r records, s stops and names the memo, q quits."),
                (command: "voicememo record --duration 30s --title \"Standup\"", text: "Record 30 seconds into a new memo and print its id."),
                (command: "voicememo record --vox --vox-silence 2s", text: "Record one memo per utterance, each ending after 2 s of silence."),
                (command: "voicememo meter --source alsa:pulse --json", text: "Print the input's levels as JSON, one object per update."),
                (command: "voicememo list --json", text: "List the memos as JSON."),
                (command: "voicememo export 3 talk.flac", text: "Write a FLAC copy of memo 3."),
            ],
            memoListingArguments: ["--complete-memos"])
    }

    /// The man page's date: the day this version was made (the page must be the same for the
    /// same version wherever it is generated).
    static let date = "2026-12-01"
}
