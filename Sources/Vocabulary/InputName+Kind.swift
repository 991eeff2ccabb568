extension InputName {
    /// The kinds of input, each with the prefix that starts its text form.
    public enum Kind: CaseIterable, Sendable {
        case alsa, pulse, tone, file, url

        /// "alsa:", "pulse:", "tone:", "file:", "url:".
        public var prefix: String {
            switch self {
            case .alsa: "alsa:"
            case .pulse: "pulse:"
            case .tone: "tone:"
            case .file: "file:"
            case .url: "url:"
            }
        }
    }

    /// The kind `text` names and what follows its prefix ("alsa:hw:1,0" is `.alsa` and
    /// "hw:1,0"); `nil` when it starts with no kind's prefix. What follows is not checked:
    /// the caller words what is wrong with it (`--source` parsing in AppRuntime).
    public static func parts(of text: String) -> (kind: Kind, detail: String)? {
        for kind in Kind.allCases where text.hasPrefix(kind.prefix) {
            return (kind, String(text.dropFirst(kind.prefix.count)))
        }
        return nil
    }

    /// The ALSA device a playback `--device` value names: `alsa:NAME` as `--source` writes an
    /// ALSA input is taken as NAME, anything else is already ALSA's own name.
    public static func playbackDevice(named text: String) -> String {
        if let (kind, device) = parts(of: text), kind == .alsa { return device }
        return text
    }
}
