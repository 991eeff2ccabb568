extension InputName {
    /// What joins the two inputs of a joined input's text form: `pulse:A+pulse:B`.
    public static let joinSeparator = "+"

    /// The word `--source`, the config file and the app take for ``meeting``.
    public static let meetingWord = "meeting"

    /// The sound server's name for the default sink's monitor: what the desktop plays.
    public static let defaultMonitor = "@DEFAULT_MONITOR@"

    /// A meeting: the sound server's default source (the microphone) and the default sink's
    /// monitor (the desktop), `pulse:default+pulse:@DEFAULT_MONITOR@`.
    public static let meeting = InputName.joined(first: "default", second: defaultMonitor)

    /// The parts of `text` when it joins inputs (`pulse:A+pulse:B`, split at every `+`), `nil`
    /// when it is one input. A file path or a URL may hold a `+`, so `file:` and `url:` text is
    /// never a join; a sound server's source name with a `+` in it cannot be joined. The parts
    /// are not checked: the caller words what is wrong with them (`--source` parsing in AppRuntime).
    public static func joinedParts(of text: String) -> [String]? {
        if text.hasPrefix(Kind.file.prefix) || text.hasPrefix(Kind.url.prefix) { return nil }
        guard text.contains(joinSeparator) else { return nil }
        return text.split(separator: Character(joinSeparator), omittingEmptySubsequences: false).map(String.init)
    }
}
