import CPulseLoader

/// One source or sink of the sound server, as the server describes it.
public struct PulseDeviceInfo: Sendable, Hashable {
    /// The name to open (`--source pulse:NAME`), e.g. "alsa_input.usb-…", "mic_feed.monitor".
    public var name: String
    /// The server's description, e.g. "USB Headset Mono", "Monitor of Built-in Audio".
    public var description: String
    /// Its channels and rate, as the server runs it.
    public var channels: Int
    public var sampleRate: Int
    /// A sink's monitor: it records what the sink plays (always false for a sink).
    public var isMonitor: Bool
    /// The server's default source (or sink).
    public var isDefault: Bool
    /// A sink's monitor source, the name that records what it plays (nil for a source).
    public var monitorSource: String?

    public init(
        name: String, description: String, channels: Int, sampleRate: Int, isMonitor: Bool, isDefault: Bool, monitorSource: String? = nil
    ) {
        self.name = name
        self.description = description
        self.channels = channels
        self.sampleRate = sampleRate
        self.isMonitor = isMonitor
        self.isDefault = isDefault
        self.monitorSource = monitorSource
    }
}

/// What a sound server has: its sources and sinks in the server's order.
public struct PulseDeviceList: Sendable, Hashable {
    /// The server's address, as libpulse reached it.
    public var server: String
    /// The server's name and version, e.g. "pulseaudio 16.1".
    public var serverName: String
    public var sources: [PulseDeviceInfo]
    public var sinks: [PulseDeviceInfo]

    public init(server: String, serverName: String, sources: [PulseDeviceInfo], sinks: [PulseDeviceInfo]) {
        self.server = server
        self.serverName = serverName
        self.sources = sources
        self.sinks = sinks
    }

    /// The default source, when the server names one it has.
    public var defaultSource: PulseDeviceInfo? { sources.first(where: \.isDefault) }
}

/// The sound server's sources and sinks, through libpulse (PulseAudio, or PipeWire's
/// pipewire-pulse).
public enum PulseDevices {
    /// How long listing may take in all, connecting included: a server that does not answer
    /// within it is taken as none.
    public static let timeout: Duration = .seconds(1)

    /// Connects, asks for the server's defaults, sources and sinks, and disconnects.
    ///
    /// - Parameters:
    ///   - server: An address (`unix:/path/native`); nil for libpulse's own choice
    ///     (`PULSE_SERVER`, then the user's socket).
    ///   - timeout: How long it may take in all.
    /// - Throws: `PulseError` `.libraryMissing`, `.noServer`, `.timedOut` or `.failed`.
    public static func list(server: String? = nil, timeout: Duration = timeout) throws(PulseError) -> PulseDeviceList {
        let connection = try PulseConnection(server: server, timeout: timeout)
        let answers = Answers()
        let userdata = Unmanaged.passUnretained(answers).toOpaque()
        try withExtendedLifetime(answers) { () throws(PulseError) in
            try connection.perform { pa_context_get_server_info($0, serverInfoReceived, userdata) }
            try connection.perform { pa_context_get_source_info_list($0, sourceInfoReceived, userdata) }
            try connection.perform { pa_context_get_sink_info_list($0, sinkInfoReceived, userdata) }
        }
        let sources = answers.sources.map { mark($0, defaultName: answers.defaultSource) }
        let sinks = answers.sinks.map { mark($0, defaultName: answers.defaultSink) }
        return PulseDeviceList(server: connection.server, serverName: answers.serverName, sources: sources, sinks: sinks)
    }

    /// Whether a sound server answers at libpulse's own address (`PULSE_SERVER`, then the
    /// user's and the system's sockets) within `timeout`; no server is started. False when
    /// libpulse is not installed.
    public static func serverAnswers(timeout: Duration = timeout) -> Bool {
        (try? PulseConnection(server: nil, timeout: timeout)) != nil
    }

    private static func mark(_ device: PulseDeviceInfo, defaultName: String?) -> PulseDeviceInfo {
        var marked = device
        marked.isDefault = device.name == defaultName
        return marked
    }
}

/// What libpulse's callbacks hand back, collected on the listing thread.
private final class Answers {
    var serverName = ""
    var defaultSource: String?
    var defaultSink: String?
    var sources: [PulseDeviceInfo] = []
    var sinks: [PulseDeviceInfo] = []

    static func from(_ userdata: UnsafeMutableRawPointer?) -> Answers? {
        userdata.map { Unmanaged<Answers>.fromOpaque($0).takeUnretainedValue() }
    }
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

private let serverInfoReceived: pa_server_info_cb_t = { _, info, userdata in
    guard let answers = Answers.from(userdata), let info else { return }
    let name = text(info.pointee.server_name)
    let version = text(info.pointee.server_version)
    answers.serverName = version.isEmpty ? name : name + " " + version
    answers.defaultSource = info.pointee.default_source_name.map { String(cString: $0) }
    answers.defaultSink = info.pointee.default_sink_name.map { String(cString: $0) }
}

private let sourceInfoReceived: pa_source_info_cb_t = { _, info, end, userdata in
    guard end == 0, let answers = Answers.from(userdata), let info else { return }
    let source = info.pointee
    answers.sources.append(
        PulseDeviceInfo(
            name: text(source.name), description: text(source.description), channels: Int(source.sample_spec.channels),
            sampleRate: Int(source.sample_spec.rate), isMonitor: source.monitor_of_sink != vm_pulse_invalid_index(),
            isDefault: false))
}

private let sinkInfoReceived: pa_sink_info_cb_t = { _, info, end, userdata in
    guard end == 0, let answers = Answers.from(userdata), let info else { return }
    let sink = info.pointee
    answers.sinks.append(
        PulseDeviceInfo(
            name: text(sink.name), description: text(sink.description), channels: Int(sink.sample_spec.channels),
            sampleRate: Int(sink.sample_spec.rate), isMonitor: false, isDefault: false,
            monitorSource: sink.monitor_source_name.map { String(cString: $0) }))
}
