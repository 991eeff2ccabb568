/// ICY (Shoutcast/Icecast) in-band metadata: `StreamTitle='Artist - Song';StreamUrl='…';`.
public enum IcyMetadata {
    /// The `StreamTitle` of a metadata packet; nil when the packet has none.
    ///
    /// Values are quoted with `'`; a title may itself hold `'` (`Rock 'n' Roll`), so the value
    /// ends at the `';` that is followed by the next key or the end, not at the first quote.
    public static func streamTitle(in packet: String) -> String? {
        guard let start = packet.range(of: "StreamTitle='") else { return nil }
        let rest = packet[start.upperBound...]
        var end = rest.endIndex
        var search = rest.startIndex
        while let quote = rest[search...].range(of: "';") {
            let after = rest[quote.upperBound...]
            if after.isEmpty || after.first?.isLetter == true || after.allSatisfy({ $0 == "\0" || $0.isWhitespace }) {
                end = quote.lowerBound
                break
            }
            search = quote.upperBound
        }
        if end == rest.endIndex, rest.hasSuffix("'") { end = rest.index(before: rest.endIndex) }
        return String(rest[..<end])
    }
}

/// How a stream is opened and kept: timeouts, reconnects, trust, buffering.
public struct StreamOptions: Sendable, Equatable {
    /// Seconds without data (at connect or while playing) before giving up.
    public var timeout: Double = 10
    /// How often a dropped live stream is reconnected before giving up (0: never).
    public var reconnectAttempts: Int = 5
    /// The wait before the first reconnect; doubled each time, at most `reconnectDelayLimit`.
    public var reconnectDelay: Double = 0.5
    public var reconnectDelayLimit: Double = 8
    /// A PEM file of certificate authorities to trust for https (instead of the system's).
    public var certificateAuthorities: String?
    /// Seconds of audio decoded before playback starts.
    public var bufferSeconds: Double = 0.5

    /// The system's trusted authorities (Debian's ca-certificates bundle).
    public static let systemCertificateAuthorities = "/etc/ssl/certs/ca-certificates.crt"

    public init() {}

    /// The wait before reconnect number `attempt` (1, 2, …): 0.5, 1, 2, 4, 8, 8 … s by default.
    public func reconnectDelay(forAttempt attempt: Int) -> Double {
        var delay = reconnectDelay
        for _ in 1..<max(1, attempt) { delay *= 2 }
        return min(delay, reconnectDelayLimit)
    }
}
