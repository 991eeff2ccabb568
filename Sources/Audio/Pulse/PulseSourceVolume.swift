import CPulseLoader
import Glibc

/// The volume and mute of one source of the sound server, through libpulse's introspection
/// (`pa_context_get_source_info_by_name`, `pa_context_set_source_volume_by_name`,
/// `pa_context_set_source_mute_by_name`): the operations of `ALSACaptureMixer`, answering with
/// the same `CaptureGain`.
///
/// The server's volume is a software scale in dB (`pa_sw_volume_to_dB`; 100 % is 0 dB), one
/// value per channel. A change scales every channel by the same factor (`pa_cvolume_scale`), so
/// the balance between channels stays; the reading is the loudest channel's. The dB range is
/// `decibelRange`: −60 dB (10 %) to +10.6 dB (150 %, the most PulseAudio's own mixers offer);
/// a change in dB stays within it (or where it already was, when `pactl` set it outside), and
/// lower volumes, down to silence (0 %), are set in per cent. Percentages are the server's own
/// (`pactl`'s: volume ÷ 100 % of the server), 0–150.
///
/// Each call is one request and answer on a connection of its own (`PulseConnection`), never
/// longer in all than the timeout given at opening. Not thread-safe: one owner at a time.
public final class PulseSourceVolume {
    /// The server's name for the source ("default" resolved to the default source's name).
    public let source: String
    /// The server's description of the source, e.g. "USB Headset Mono": the control's name.
    public let description: String
    /// The server's address, as libpulse reached it.
    public var server: String { connection.server }

    private let connection: PulseConnection

    /// The range a change in dB keeps to: −60 dB (10 %) up to 150 % (+10.6 dB).
    public static let decibelRange: ClosedRange<Double> = -60...(60 * log10(1.5))
    /// The highest percentage a change in per cent sets.
    public static let maximumPercent = 150.0
    /// How long opening and every later request may take in all.
    public static let timeout: Duration = .seconds(2)

    /// Connects to the server and finds `source`.
    ///
    /// - Parameters:
    ///   - source: The server's name for the source, or "default" for its default source.
    ///   - server: An address (`unix:/path/native`); nil for libpulse's own choice.
    ///   - timeout: How long opening and every later request may take in all.
    /// - Throws: `PulseError`: `.noSuchSource` with the names the server has; `.noServer`,
    ///   `.timedOut`, `.libraryMissing`, `.failed`.
    public init(source: String, server: String? = nil, timeout: Duration = timeout) throws(PulseError) {
        connection = try PulseConnection(server: server, timeout: timeout)
        let requested = source == PulseCaptureSource.defaultName ? Self.defaultSourceAlias : source
        guard let info = try Self.info(of: requested, on: connection) else {
            throw PulseError(.noSuchSource, server: connection.server, source: source, available: try Self.sourceNames(on: connection))
        }
        self.source = info.name
        self.description = info.description
    }

    /// libpulse's name for the default source, wherever a source is named.
    static let defaultSourceAlias = "@DEFAULT_SOURCE@"

    /// The source's state now.
    ///
    /// - Throws: `PulseError` `.sourceRemoved` when the source is gone, or the connection's errors.
    public func read() throws(PulseError) -> CaptureGain {
        let info = try current()
        let loudest = info.loudest
        let percent = Double(loudest) / Double(vm_pulse_volume_norm()) * 100
        let decibels = info.hasDecibelScale && loudest > 0 ? pa_sw_volume_to_dB(loudest) : nil
        return CaptureGain(
            control: info.description.isEmpty ? info.name : info.description, percent: percent, decibels: decibels,
            decibelRange: info.hasDecibelScale ? Self.decibelRange : nil, isOn: !info.isMuted)
    }

    /// Sets the loudest channel to `decibels`, clamped to `decibelRange`, the others in proportion.
    ///
    /// - Throws: `PulseError` `.noDecibelScale` for a source whose volume has no dB scale.
    public func setDecibels(_ decibels: Double) throws(PulseError) {
        let info = try current()
        guard info.hasDecibelScale else { throw noDecibelScale() }
        let range = Self.decibelRange
        try set(info, loudest: pa_sw_volume_from_dB(min(range.upperBound, max(range.lowerBound, decibels))))
    }

    /// Changes the volume by `decibels`, every channel alike. A change never leaves the range
    /// from inside it, nor moves further out from outside it (a step down from 5 % stays).
    public func change(byDecibels decibels: Double) throws(PulseError) {
        let info = try current()
        guard info.hasDecibelScale else { throw noDecibelScale() }
        let loudest = info.loudest
        let now = loudest > 0 ? pa_sw_volume_to_dB(loudest) : -Double.infinity
        let range = Self.decibelRange
        let low = min(range.lowerBound, now), high = max(range.upperBound, now)
        let target = min(high, max(low, now + decibels))
        guard target.isFinite else { return }
        try set(info, loudest: pa_sw_volume_from_dB(target))
    }

    /// Sets the loudest channel to `percent` of the server's 100 % (clamped to 0–150), the
    /// others in proportion.
    public func setPercent(_ percent: Double) throws(PulseError) {
        try set(try current(), percent: percent)
    }

    /// Changes the volume by `percent` points of the server's 100 %.
    public func change(byPercent percent: Double) throws(PulseError) {
        let info = try current()
        try set(info, percent: Double(info.loudest) / Double(vm_pulse_volume_norm()) * 100 + percent)
    }

    /// One step up or down, as the app's `<` and `>` make it: 1 dB (1 % on a source without
    /// a dB scale).
    public func step(up: Bool) throws(PulseError) {
        let info = try current()
        if info.hasDecibelScale {
            try change(byDecibels: up ? 1 : -1)
        } else {
            try set(info, percent: (Double(info.loudest) / Double(vm_pulse_volume_norm()) * 100).rounded() + (up ? 1 : -1))
        }
    }

    /// Unmutes (`on`) or mutes the source.
    public func setSwitch(on: Bool) throws(PulseError) {
        let name = source
        try confirm { context, callback, userdata in
            pa_context_set_source_mute_by_name(context, name, on ? 0 : 1, callback, userdata)
        }
    }

    private func set(_ info: SourceState, percent: Double) throws(PulseError) {
        let clamped = min(Self.maximumPercent, max(0, percent.isFinite ? percent : 0))
        try set(info, loudest: pa_volume_t((Double(vm_pulse_volume_norm()) * clamped / 100).rounded()))
    }

    /// Scales every channel so that the loudest is at `loudest` (all at it when all were silent).
    private func set(_ info: SourceState, loudest: pa_volume_t) throws(PulseError) {
        var volume = info.volume
        pa_cvolume_scale(&volume, loudest)
        let name = source
        try confirm { context, callback, userdata in
            pa_context_set_source_volume_by_name(context, name, &volume, callback, userdata)
        }
    }

    /// Runs a request whose answer is a success flag; a refusal is an error.
    private func confirm(
        _ request: (OpaquePointer, pa_context_success_cb_t, UnsafeMutableRawPointer) -> OpaquePointer?
    ) throws(PulseError) {
        let answer = SuccessAnswer()
        let userdata = Unmanaged.passUnretained(answer).toOpaque()
        try withExtendedLifetime(answer) { () throws(PulseError) in
            try connection.perform { request($0, successReceived, userdata) }
        }
        guard answer.succeeded else {
            let code = pa_context_errno(connection.context)
            let removed = code == Int32(PA_ERR_NOENTITY.rawValue)
            throw PulseError.libpulse(removed ? .sourceRemoved : .failed, code: code, server: server, source: source)
        }
    }

    private func current() throws(PulseError) -> SourceState {
        guard let info = try Self.info(of: source, on: connection) else {
            throw PulseError.libpulse(.sourceRemoved, code: pa_context_errno(connection.context), server: server, source: source)
        }
        return info
    }

    private func noDecibelScale() -> PulseError {
        PulseError(.noDecibelScale, server: server, source: description.isEmpty ? source : description)
    }

    /// The source named `name`, or nil when the server has none by that name.
    private static func info(of name: String, on connection: PulseConnection) throws(PulseError) -> SourceState? {
        let answer = SourceAnswer()
        let userdata = Unmanaged.passUnretained(answer).toOpaque()
        try withExtendedLifetime(answer) { () throws(PulseError) in
            try connection.perform { pa_context_get_source_info_by_name($0, name, sourceStateReceived, userdata) }
        }
        return answer.state
    }

    private static func sourceNames(on connection: PulseConnection) throws(PulseError) -> [String] {
        let answer = SourceAnswer()
        let userdata = Unmanaged.passUnretained(answer).toOpaque()
        try withExtendedLifetime(answer) { () throws(PulseError) in
            try connection.perform { pa_context_get_source_info_list($0, sourceStateReceived, userdata) }
        }
        return answer.names
    }
}

/// A source's volume as the server reported it.
private struct SourceState {
    var name: String
    var description: String
    var volume: pa_cvolume
    var isMuted: Bool
    /// `PA_SOURCE_DECIBEL_VOLUME`: its volume is a dB scale.
    var hasDecibelScale: Bool

    var loudest: pa_volume_t {
        withUnsafePointer(to: volume) { pa_cvolume_max($0) }
    }
}

/// What the source-info callbacks hand back, collected on the calling thread.
private final class SourceAnswer {
    var state: SourceState?
    var names: [String] = []
}

/// What a success callback hands back.
private final class SuccessAnswer {
    var succeeded = false
}

private let sourceStateReceived: pa_source_info_cb_t = { _, info, end, userdata in
    guard end == 0, let info, let userdata else { return }
    let answer = Unmanaged<SourceAnswer>.fromOpaque(userdata).takeUnretainedValue()
    let source = info.pointee
    let name = source.name.map { String(cString: $0) } ?? ""
    answer.names.append(name)
    answer.state = SourceState(
        name: name, description: source.description.map { String(cString: $0) } ?? "", volume: source.volume,
        isMuted: source.mute != 0, hasDecibelScale: source.flags.rawValue & PA_SOURCE_DECIBEL_VOLUME.rawValue != 0)
}

private let successReceived: pa_context_success_cb_t = { _, success, userdata in
    guard let userdata else { return }
    Unmanaged<SuccessAnswer>.fromOpaque(userdata).takeUnretainedValue().succeeded = success != 0
}
