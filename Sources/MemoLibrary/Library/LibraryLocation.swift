/// Where the memo library lives: `$VOICEMEMO_HOME`, else `$XDG_DATA_HOME/voicememo`, else `~/.local/share/voicememo`.
public enum LibraryLocation {
    /// `$VOICEMEMO_HOME`, else `$XDG_DATA_HOME/voicememo`, else `$HOME/.local/share/voicememo`.
    ///
    /// Empty variables count as unset (as the XDG spec says). Relative paths are kept as given.
    /// - Returns: `nil` when none of the three variables is set.
    public static func folder(environment: [String: String]) -> String? {
        if let home = nonEmpty(environment["VOICEMEMO_HOME"]) {
            return trimmed(home)
        }
        if let data = nonEmpty(environment["XDG_DATA_HOME"]) {
            return trimmed(data) + "/voicememo"
        }
        if let home = nonEmpty(environment["HOME"]) {
            return trimmed(home) + "/.local/share/voicememo"
        }
        return nil
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// Without trailing slashes (but `/` stays `/`).
    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") {
            path.removeLast()
        }
        return path
    }
}
