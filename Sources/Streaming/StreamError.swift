/// Why a network stream could not be played (or recorded), with what a person needs to fix it.
///
/// The words are written in one place, `description`: "HTTP 404 Not Found from 127.0.0.1:8000".
public struct StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server answered with an error status (4xx, 5xx).
        case httpStatus(code: Int, reason: String)
        /// Redirects went on past the limit (FFmpeg follows at most 8).
        case redirectLoop
        /// The server redirected to a URL that is not http(s) (`file:///…`, `ftp://…`): its
        /// Location header as sent.
        case redirectRefused(location: String)
        /// Nothing arrived for the timeout.
        case timeout(seconds: Double)
        /// The connection closed before the stream's end.
        case dropped
        /// The reply is not audio (an HTML page, a text file).
        case notAudio(contentType: String)
        /// The server sent header lines past `limit` bytes without ending them.
        case endlessHeaders(limit: Int)
        /// The server could not be reached or the TLS handshake failed (refused, no such host,
        /// certificate not trusted): FFmpeg's reason.
        case connection(String)
        /// The reply is audio of a kind no decoder here handles, or it could not be decoded.
        case decode(String)
        /// Not an http:// or https:// URL.
        case unsupportedURL
        /// The playback device refused the stream.
        case device(String)
    }

    public var kind: Kind
    /// The URL as given.
    public var url: String

    public init(_ kind: Kind, url: String) {
        self.kind = kind
        self.url = url
    }

    /// Whether a live stream is worth reconnecting after this: it dropped or stalled.
    public var isDrop: Bool {
        switch kind {
        case .dropped, .timeout: true
        default: false
        }
    }

    /// `host:port` of the URL ("127.0.0.1:8000"), or the URL when it has no host.
    public var server: String { StreamURL(url)?.hostAndPort ?? url }

    public var description: String {
        switch kind {
        case .httpStatus(let code, let reason):
            return "HTTP \(code)\(reason.isEmpty ? "" : " " + reason) from \(server)"
        case .redirectLoop:
            return "\(url) redirects in a loop (more than 8 redirects from \(server))"
        case .redirectRefused(let location):
            return "\(server) redirected to \(location), which is not an http:// or https:// URL: not followed"
        case .timeout(let seconds):
            return "no data from \(server) for \(Self.secondsText(seconds)) s: timed out (--timeout)"
        case .dropped:
            return "the connection to \(server) dropped before the stream's end"
        case .notAudio(let type):
            let what = type.lowercased().hasPrefix("text/html") ? "an HTML page" : "not audio"
            return "\(server) replied with \(what) (\(type)) for \(url), not an audio stream"
        case .endlessHeaders(let limit):
            return "\(server) sent more than \(limit / 1024) KiB of HTTP headers without ending them: not an audio stream"
        case .connection(let reason):
            return "cannot connect to \(server): \(reason)"
        case .decode(let reason):
            return "cannot play \(url): \(reason)"
        case .unsupportedURL:
            return "\(url) is not an http:// or https:// URL"
        case .device(let reason):
            return reason
        }
    }

    private static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// The parts of an http(s) URL this module needs: scheme, host and port.
public struct StreamURL: Sendable, Equatable {
    public var isSecure: Bool
    public var host: String
    public var port: Int

    /// Parses `http://host[:port]/…` and `https://…`; nil for anything else.
    public init?(_ text: String) {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") {
            isSecure = false
            rest = text.dropFirst(7)
        } else if lower.hasPrefix("https://") {
            isSecure = true
            rest = text.dropFirst(8)
        } else {
            return nil
        }
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty else { return nil }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[...close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()), (1...65535).contains(value) else { return nil }
                port = value
            } else {
                port = isSecure ? 443 : 80
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let value = Int(authority[authority.index(after: colon)...]), (1...65535).contains(value) else {
                return nil
            }
            port = value
        } else {
            host = String(authority)
            port = isSecure ? 443 : 80
        }
        guard !host.isEmpty else { return nil }
    }

    /// "127.0.0.1:8000".
    public var hostAndPort: String { "\(host):\(port)" }

    /// Whether `text` looks like a URL this module plays (http:// or https://).
    public static func isStreamURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}
