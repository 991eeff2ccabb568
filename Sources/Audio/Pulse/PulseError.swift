import CPulseLoader

/// A failure of the sound server's client library (libpulse): what went wrong, libpulse's
/// error code and text, and which server it was.
///
/// The code is libpulse's (`PA_ERR_*`, 0 when the failure is ours, as a timeout is); the
/// kind is what callers decide on, and `description` is the sentence a person reads.
public struct PulseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// libpulse could not be loaded (`dlopen`): `detail` names the library.
        case libraryMissing
        /// No server answered: none runs, or the address leads nowhere (`PA_ERR_CONNECTIONREFUSED`, …).
        case noServer
        /// The server took longer than the timeout to connect or to answer.
        case timedOut
        /// The server has no source by that name: `available` lists the names it has.
        case noSuchSource
        /// The source was removed while it was recorded (`PA_ERR_KILLED`, `PA_ERR_NOENTITY`).
        case sourceRemoved
        /// A change in dB asked of a source whose volume has no dB scale (a hardware volume
        /// without one); `source` is its description.
        case noDecibelScale
        /// The connection broke while recording (`PA_ERR_CONNECTIONTERMINATED`, …).
        case serverGone
        /// One of two joined sources delivered nothing for a while the other delivered:
        /// `detail` says how long, `available` names the one that kept delivering.
        case stalled
        /// The server has no sink by that name (`source` holds it): `available` lists the sinks it has.
        case noSuchSink
        /// The sink (`source`) was removed while it played.
        case sinkRemoved
        /// The connection broke while playing to the sink in `source`.
        case serverGoneWhilePlaying
        /// Anything else libpulse refused (a format the server does not take, a protocol error).
        case failed
    }

    public var kind: Kind
    /// libpulse's error code (`PA_ERR_*`), 0 when libpulse gave none.
    public var code: Int32
    /// The server as the person knows it: its address, or "the default server".
    public var server: String
    /// The source concerned, when one was ("" otherwise).
    public var source: String
    /// libpulse's own text for `code`, or why the library is missing.
    public var detail: String
    /// The sources the server has (for `.noSuchSource`).
    public var available: [String]

    public init(
        _ kind: Kind, code: Int32 = 0, server: String, source: String = "", detail: String = "", available: [String] = []
    ) {
        self.kind = kind
        self.code = code
        self.server = server
        self.source = source
        self.detail = detail
        self.available = available
    }

    /// An error with libpulse's own text for `code`.
    static func libpulse(_ kind: Kind, code: Int32, server: String, source: String = "") -> PulseError {
        PulseError(kind, code: code, server: server, source: source, detail: String(cString: pa_strerror(code)))
    }

    public var description: String {
        let reason = detail.isEmpty ? "" : " (\(detail))"
        return switch kind {
        case .libraryMissing: "the sound server's client library cannot be loaded: \(detail)"
        case .noServer: "no sound server answers at \(server)\(reason)"
        case .timedOut: "the sound server at \(server) did not answer within \(detail)"
        case .noSuchSource:
            "the sound server at \(server) has no source \"\(source)\"; its sources: "
                + (available.isEmpty ? "none" : available.joined(separator: ", "))
        case .sourceRemoved: "the source \"\(source)\" was removed from the sound server at \(server)\(reason)"
        case .noDecibelScale: "the source \"\(source)\" has no dB scale: give a percentage (50%, +5%)"
        case .serverGone: "the sound server at \(server) went away while recording \"\(source)\"\(reason)"
        case .stalled:
            "the source \"\(source)\" of the sound server at \(server) delivered nothing for \(detail) while \""
                + available.joined(separator: "\", \"") + "\" did"
        case .noSuchSink:
            "the sound server at \(server) has no sink \"\(source)\"; its sinks: "
                + (available.isEmpty ? "none" : available.joined(separator: ", "))
        case .sinkRemoved: "the sink \"\(source)\" was removed from the sound server at \(server) while playing\(reason)"
        case .serverGoneWhilePlaying: "the sound server at \(server) went away while playing to \"\(source)\"\(reason)"
        case .failed: "the sound server at \(server) refused\(source.isEmpty ? "" : " \"\(source)\"")\(reason)"
        }
    }
}
