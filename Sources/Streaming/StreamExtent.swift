/// Where a stream ends, from what its server said: the one rule that tells a finished file from a
/// dropped live stream.
///
/// A reply without a Content-Length is either a live stream (a radio: it never ends, so its end
/// is a drop to reconnect) or a file sent until the connection closes (HTTP/1.0, a script, a
/// transcoder: its close is its end, and reconnecting would start it over). The rule:
///
/// 1. A Content-Length: a file of that length (`.length`). Closing before it is a drop.
/// 2. No length, the server speaks ICY (an `icy-*` header — `icy-metaint`, `icy-name`, `icy-br`,
///    `icy-pub` — or an `ICY 200` status line) and the reply cannot be seeked (no
///    `Accept-Ranges`): a live stream (`.live`). Every Icecast and Shoutcast mount says so.
/// 3. Otherwise a file that ends where the connection closes (`.untilClose`). When its
///    container announced a length (MP3's Xing header, FLAC's STREAMINFO, WAV, MP4), closing
///    more than `toleratedShortfall` short of it is a drop; otherwise a close is its end.
///
/// The consequence, by design: a live stream whose server sends no ICY header at all is played
/// until its server closes, and not reconnected. Replaying a file forever (or recording its
/// opening over and over) is the worse mistake. The Content-Type does not decide (files and
/// radios both say `audio/mpeg`); it chooses the demuxer (`StreamContainer`).
public enum StreamExtent: Sendable, Equatable {
    /// A Content-Length: this many bytes.
    case length(bytes: Int64)
    /// A live stream: its end is a drop.
    case live
    /// No length and no ICY: the connection's close is its end.
    case untilClose

    /// Seconds a file sent until close may fall short of its container's length and still be whole:
    /// the end is judged when the last packet is read, before the decoder gives up the frames it
    /// holds (a FLAC block is 85 ms, an AAC frame 21–43 ms), and a header may round.
    public static let toleratedShortfall = 0.25

    /// The rule above, from the reply: its length (`avio_size`; ≤ 0 for none), whether it spoke
    /// ICY, and whether it can be seeked (a server that accepts ranges serves a file).
    public static func of(length: Int64, speaksICY: Bool, seekable: Bool) -> StreamExtent {
        if length > 0 { return .length(bytes: length) }
        return speaksICY && !seekable ? .live : .untilClose
    }

    /// Whether the end of this reply is a drop to reconnect.
    public var isLive: Bool { self == .live }

    /// Whether an end after `received` seconds of audio, of a container that announced `announced`
    /// seconds, fell short of it: a drop. Only for `.untilClose`: a Content-Length is checked in bytes.
    public func endsShort(received: Double, announced: Double?) -> Bool {
        guard self == .untilClose, let announced, announced > 0 else { return false }
        return received < announced - Self.toleratedShortfall
    }
}

/// The demuxer a Content-Type names, so a live stream is opened without probing its bytes.
///
/// FFmpeg's format probe reads up to 1 MiB before it decides, doubling from 2 KiB until it is
/// sure: a live MP3 joined mid-frame scores 25 at 32 and 64 KiB and 50 only at 128 KiB, which at
/// 128 kbit/s is 4 s of waiting past an Icecast burst of 64 KiB. The server already said what it
/// sends.
public enum StreamContainer {
    /// FFmpeg's demuxer name for `contentType` ("audio/mpeg" → "mp3"), ignoring parameters
    /// ("; charset=…") and case; nil for a type that names no single container
    /// (`application/octet-stream`, `audio/mp4`, none): those are probed.
    public static func demuxer(forContentType contentType: String) -> String? {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let mediaType = contentType.prefix { $0 != ";" }.drop(while: blank)
        let type = String(mediaType.reversed().drop(while: blank).reversed()).lowercased()
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg", "audio/x-mp3", "audio/mpg": return "mp3"
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/x-aacp", "audio/x-hx-aac-adts": return "aac"
        case "audio/ogg", "application/ogg", "audio/x-ogg", "audio/vorbis", "audio/opus", "audio/x-opus+ogg": return "ogg"
        case "audio/flac", "audio/x-flac": return "flac"
        case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave": return "wav"
        default: return nil
        }
    }
}

/// A redirect's target, as the server's Location header gave it.
public enum StreamRedirect {
    /// Whether a `Location` may be followed: a relative reference (`/next`, `next.mp3`,
    /// `//host/x`) or an http(s) URL. Any other scheme (`file:`, `ftp:`, `data:`) is refused:
    /// FFmpeg's http layer would take it for a host and port, or worse open it.
    public static func isFollowed(_ location: String) -> Bool {
        guard let scheme = scheme(of: location) else { return true }
        return scheme == "http" || scheme == "https"
    }

    /// The scheme of an absolute URL (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`,
    /// then `:`), lowercased; nil for a relative reference.
    static func scheme(of location: String) -> String? {
        let text = location.drop { $0 == " " || $0 == "\t" }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        let allowed = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == ".")
        }
        return allowed ? name.lowercased() : nil
    }
}
