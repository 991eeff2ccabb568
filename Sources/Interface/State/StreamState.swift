import Vocabulary
import Metering

/// The network stream playing (`o`), as the screen shows it.
///
/// `AppState.stream` is `nil` when no stream plays. The player connects and decodes on a
/// thread of its own; what it reports arrives as `Action.streamUpdate`, its levels as
/// `Action.streamProgress` at each tick. While it plays, the LED rows show its levels (as
/// they show a memo's) and the status line its name and ICY title.
public struct StreamState: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Asked of the player; no answer yet.
        case connecting
        /// Connected; decoding the first seconds before the device starts.
        case buffering
        case playing
        /// A live stream dropped; the player reconnects (`message` says which try and why).
        case reconnecting(message: String)
    }

    /// The URL as typed.
    public var url: String
    public var phase: Phase = .connecting
    /// The server's `icy-name`, once playing.
    public var name: String?
    /// The latest ICY `StreamTitle`.
    public var title: String?
    /// Whether it is a live stream (no length).
    public var isLive = false
    /// What the player said about bytes arriving too slowly while it buffers; nil once it plays.
    public var slowNote: String?
    /// Seconds of it played so far.
    public var played: Double = 0
    /// One per channel, once playing.
    public var meters: [ChannelMeter] = []

    public init(url: String) {
        self.url = url
    }

    /// What the status line calls it: its name, else its server.
    public var label: String {
        if let name, !name.isEmpty { return name }
        return StreamAddress(url)?.server ?? url
    }

    /// The default title of a memo recorded from it (`R`): the song, else the stream's name, fitted
    /// to the title rule (`MemoTitle.fitted`: a 4000-character StreamTitle is cut to 500).
    public var recordingTitle: String {
        if let title, let fitted = MemoTitle.fitted(title) { return fitted }
        return MemoTitle.fitted("Stream " + label) ?? "Stream"
    }

    /// The status line while nothing else is said: "▶ Song 2 — Radio · live 00:00:12 · s stops, R records"
    /// (the title first: what changes is what a narrow line keeps).
    public func statusText(recording: Bool) -> String {
        switch phase {
        case .connecting: return "Connecting to \(StreamAddress(url)?.server ?? url)…" + (slowNote.map { " " + $0 } ?? "")
        case .buffering: return "Buffering \(label)…" + (slowNote.map { " " + $0 } ?? "")
        case .reconnecting(let message): return message
        case .playing:
            let what = title.map { "\($0) — \(label)" } ?? label
            let time = DisplayFormat.elapsedTime(seconds: played)
            let keys = recording ? "s stops the recording" : "s stops, R records"
            return "▶ \(what) · \(isLive ? "live " : "")\(time) · \(keys)"
        }
    }
}

/// What the stream player reported, in the Interface's words.
public enum StreamUpdate: Sendable, Equatable {
    /// Connected; decoding the first `seconds` of audio.
    case buffering(seconds: Double)
    /// Playing (again, after a reconnect): `channels` channels; `name` the server's.
    case playing(name: String?, channels: Int, isLive: Bool)
    /// The ICY `StreamTitle` changed.
    case title(String)
    /// Bytes arrive too slowly to start playing; `message` in plain words.
    case slow(message: String)
    /// A live stream dropped and is reconnected; `message` in plain words.
    case reconnecting(message: String)
    /// The stream ended (one with a length, played to its end).
    case finished
    /// The stream could not be played or stopped on an error.
    case failed(StreamFailure)
}

/// Why a stream could not be played or stopped, as the status line says it (`message`).
public enum StreamFailure: Sendable, Hashable {
    /// No data came from `server` for `seconds`. Worded without the command line's
    /// `--timeout`, which the app does not have.
    case noData(server: String, seconds: Double)
    /// Any other cause, in the stream's own words ("HTTP 404 Not Found from 127.0.0.1:8000").
    case stream(detail: String)

    /// "no data from 127.0.0.1:8000 for 10 s: timed out"; the stream's words otherwise.
    public var message: String {
        switch self {
        case .noData(let server, let seconds):
            return "no data from \(server) for \(DisplayFormat.seconds(seconds)): timed out"
        case .stream(let detail):
            return detail
        }
    }
}

/// What the runner read from the stream player at one tick.
public struct StreamSnapshot: Sendable, Hashable {
    /// Seconds played so far.
    public var played: Double
    /// One per channel: the levels played since the previous tick.
    public var channels: [ChannelLevel]

    public init(played: Double, channels: [ChannelLevel]) {
        self.played = played
        self.channels = channels
    }
}

/// The parts of an http(s) URL the prompt checks before anything connects: the player
/// (`Streaming.StreamURL`) has the last word.
struct StreamAddress: Equatable {
    /// "127.0.0.1:8000" (the host alone when the URL names no port).
    var server: String

    /// `nil` unless `text` is `http://HOST…` or `https://HOST…`.
    init?(_ text: String) {
        let lower = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lower.hasPrefix($0) }) else { return nil }
        var authority = text.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty, !authority.hasPrefix(":") else { return nil }
        server = String(authority)
    }
}
