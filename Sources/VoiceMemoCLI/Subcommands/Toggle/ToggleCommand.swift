import ArgumentParsing

/// `voicememo toggle`: start a recording, or stop and save the one running.
enum ToggleCommand: SubcommandDefinition {
    static let specification = CommandSpecification(
        name: "toggle", abstract: "Start a recording, or stop and save the one running (for a hotkey).",
        discussion: "Asks whichever voicememo serves the library's control socket (the app or a `record`): "
            + "the app starts or stops a recording as its r and s keys do; a `record` stops and saves as Ctrl-C does, then plays or transcribes it if asked to. "
            + "With nothing running, starts `voicememo record` in the background, detached from the terminal, "
            + "with the configuration's source and format; the next toggle stops it. "
            + ControlDiscussion.paths,
        options: [])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> ToggleOptions {
        ToggleOptions()
    }

    static func run(_ options: ToggleOptions, context: CommandContext) throws -> ExitCode {
        try ToggleRunner.run(options, context: context)
    }
}

/// Where the control socket and the background recording's log are, for the help texts.
enum ControlDiscussion {
    static let paths = "The socket is $XDG_RUNTIME_DIR/voicememo/NAME.sock, else /tmp/voicememo-UID/NAME.sock "
        + "(NAME from the library folder's path); a background recording's output goes to "
        + "$XDG_STATE_HOME/voicememo/NAME.log, else ~/.local/state/voicememo/NAME.log."
}
