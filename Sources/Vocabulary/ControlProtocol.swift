/// The control socket's protocol: one request line from the client, one reply line from the
/// process that records (`voicememo` or `voicememo record`), then the connection closes.
///
/// Requests, each a line ending in `\n`:
///
/// | line | what it asks |
/// |---|---|
/// | `status` | what runs: the reply is `ok status` with fields |
/// | `toggle` | start a recording, or stop and save the one running |
/// | `pause` | pause the recording, or resume it when paused |
/// | `stop` | stop and save the recording |
/// | `mark` / `mark LABEL` | a marker at the recording's current position |
///
/// Replies: `ok TEXT` (TEXT for a person), `error TEXT`, or `ok status FIELDS`, where FIELDS are
/// `key=value` separated by single spaces, in the order `process=app|record`
/// `state=recording|paused|idle` `elapsed=SECONDS` `pid=PID`, then `memo=ID` and `title=TEXT`
/// when a memo is being recorded (the title last: it takes the rest of the line).
public enum ControlRequest: Hashable, Sendable {
    case status
    case toggle
    case pause
    case stop
    case mark(label: String)

    /// The longest marker label a request may carry, in characters.
    public static let longestLabel = 64

    /// The request `line` (without its `\n`) asks for, or why it is refused.
    public static func parse(_ line: String) -> Result<ControlRequest, ControlRequestError> {
        var line = Substring(line)
        if line.hasSuffix("\r") { line = line.dropLast() }
        let word = line.prefix(while: { $0 != " " })
        let rest = line.dropFirst(word.count).drop(while: { $0 == " " })
        switch word {
        case "status", "toggle", "pause", "stop":
            guard rest.isEmpty else { return .failure(.unexpectedText(request: String(word))) }
            switch word {
            case "status": return .success(.status)
            case "toggle": return .success(.toggle)
            case "pause": return .success(.pause)
            default: return .success(.stop)
            }
        case "mark":
            let label = String(rest)
            if let problem = checkLabel(label) { return .failure(problem) }
            return .success(.mark(label: label))
        case "":
            return .failure(.empty)
        default:
            return .failure(.unknown(String(TerminalText.safe(String(word.prefix(32))))))
        }
    }

    /// Why `label` cannot be a marker's label sent through the socket, or `nil` when it can.
    public static func checkLabel(_ label: String) -> ControlRequestError? {
        if label.unicodeScalars.contains(where: isControl) { return .labelHasControlCharacters }
        if label.count > longestLabel { return .labelTooLong(characters: label.count) }
        return nil
    }

    /// The request's line, without its `\n`.
    public var line: String {
        switch self {
        case .status: "status"
        case .toggle: "toggle"
        case .pause: "pause"
        case .stop: "stop"
        case .mark(let label): label.isEmpty ? "mark" : "mark " + label
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

/// Why a request line is refused; `message` names the rule.
public enum ControlRequestError: Error, Hashable, Sendable {
    case empty
    case unknown(String)
    case unexpectedText(request: String)
    case labelTooLong(characters: Int)
    case labelHasControlCharacters

    public var message: String {
        switch self {
        case .empty:
            "empty request; the requests are status, toggle, pause, stop and mark [LABEL]"
        case .unknown(let word):
            "unknown request “\(word)”; the requests are status, toggle, pause, stop and mark [LABEL]"
        case .unexpectedText(let request):
            "“\(request)” takes nothing after it"
        case .labelTooLong(let characters):
            "a marker's label is at most \(ControlRequest.longestLabel) characters (this one has \(characters))"
        case .labelHasControlCharacters:
            "a marker's label has no control characters (tabs, line breaks, escapes)"
        }
    }
}

/// What a process serving the control socket is doing: the fields of `ok status`.
public struct ControlStatus: Hashable, Sendable {
    public enum Process: String, Sendable { case app, record }
    public enum State: String, Sendable { case recording, paused, idle }

    public var process: Process
    public var state: State
    /// Seconds recorded so far (0 when idle).
    public var elapsed: Double
    public var pid: Int32
    public var memo: Int64?
    public var title: String?

    public init(process: Process, state: State, elapsed: Double, pid: Int32, memo: Int64? = nil, title: String? = nil) {
        self.process = process
        self.state = state
        self.elapsed = elapsed
        self.pid = pid
        self.memo = memo
        self.title = title
    }
}

/// A reply line.
public enum ControlReply: Hashable, Sendable {
    case ok(String)
    case error(String)
    case status(ControlStatus)

    /// The reply's line, without its `\n`: line breaks and other controls in the text become spaces.
    public var line: String {
        switch self {
        case .ok(let text): "ok " + Self.oneLine(text)
        case .error(let text): "error " + Self.oneLine(text)
        case .status(let status):
            "ok status process=\(status.process.rawValue) state=\(status.state.rawValue) "
                + "elapsed=\(Self.decimal(status.elapsed)) pid=\(status.pid)"
                + (status.memo.map { " memo=\($0)" } ?? "")
                + (status.title.map { " title=" + Self.oneLine($0) } ?? "")
        }
    }

    /// The reply `line` (without its `\n`) says, or `nil` when it is no reply of this protocol.
    public static func parse(_ line: String) -> ControlReply? {
        var line = Substring(line)
        if line.hasSuffix("\r") { line = line.dropLast() }
        if line.hasPrefix("ok status ") || line == "ok status" {
            return parseStatus(line.dropFirst("ok status".count))
        }
        if line.hasPrefix("ok ") { return .ok(String(line.dropFirst(3))) }
        if line == "ok" { return .ok("") }
        if line.hasPrefix("error ") { return .error(String(line.dropFirst(6))) }
        return nil
    }

    private static func parseStatus(_ fields: Substring) -> ControlReply? {
        var values: [Substring: Substring] = [:]
        var title: String?
        var rest = fields.drop(while: { $0 == " " })
        while !rest.isEmpty {
            if rest.hasPrefix("title=") {
                title = String(rest.dropFirst(6))
                break
            }
            let field = rest.prefix(while: { $0 != " " })
            rest = rest.dropFirst(field.count).drop(while: { $0 == " " })
            guard let equals = field.firstIndex(of: "=") else { return nil }
            values[field[..<equals]] = field[field.index(after: equals)...]
        }
        guard let process = values["process"].flatMap({ ControlStatus.Process(rawValue: String($0)) }),
            let state = values["state"].flatMap({ ControlStatus.State(rawValue: String($0)) }),
            let elapsed = values["elapsed"].flatMap({ Double(String($0)) }),
            let pid = values["pid"].flatMap({ Int32(String($0)) })
        else { return nil }
        var memo: Int64?
        if let text = values["memo"] {
            guard let id = Int64(String(text)) else { return nil }
            memo = id
        }
        return .status(ControlStatus(process: process, state: state, elapsed: elapsed, pid: pid, memo: memo, title: title))
    }

    private static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? " " : $0
        }))
    }

    /// Seconds with two decimals, whatever the locale.
    private static func decimal(_ seconds: Double) -> String {
        let hundredths = Int((max(0, seconds) * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}

/// Where a library's control socket and its background recording's log live.
///
/// The socket is `$XDG_RUNTIME_DIR/voicememo/NAME.sock`, else `/tmp/voicememo-UID/NAME.sock`;
/// the log of a recording `toggle` started in the background is `$XDG_STATE_HOME/voicememo/NAME.log`,
/// else `~/.local/state/voicememo/NAME.log`. NAME is the library folder's last component (letters,
/// digits, `-`, `_` and `.` kept, at most 24 characters) and a 64-bit FNV-1a hash of its whole
/// path in hex, so two libraries never share a socket.
public enum ControlPaths {
    /// NAME for the library at `libraryFolder`.
    public static func name(libraryFolder: String) -> String {
        let last = libraryFolder.split(separator: "/").last.map(String.init) ?? "root"
        let kept = last.unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        var stem = String(String.UnicodeScalarView(kept.prefix(24)))
        if stem.isEmpty || stem.hasPrefix(".") { stem = "library" + stem }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in libraryFolder.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return stem + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The folder of the sockets: `$XDG_RUNTIME_DIR/voicememo`, else `/tmp/voicememo-UID`.
    public static func socketFolder(environment: [String: String], uid: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return trimmed(runtime) + "/voicememo"
        }
        return "/tmp/voicememo-\(uid)"
    }

    /// The folder of the background recordings' logs: `$XDG_STATE_HOME/voicememo`, else
    /// `$HOME/.local/state/voicememo`; `nil` without either.
    public static func stateFolder(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return trimmed(state) + "/voicememo"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return trimmed(home) + "/.local/state/voicememo"
        }
        return nil
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
