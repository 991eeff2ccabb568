import CALSA
import Glibc

/// Every `snd_pcm_*` call the ALSA layer makes, in one place.
///
/// This is the seam swift-system builds around its syscalls: `ALSAPCM` never calls
/// alsa-lib directly, it calls these requirements, whose default implementations
/// (below) are the real C calls. Tests conform a double that forwards to the real
/// calls and forces chosen results on chosen calls ("-EPIPE on read 3"), so the
/// recovery logic runs against real ALSA with the failure we need.
///
/// Calls return alsa-lib's raw result: a count, zero, or a negative errno code.
/// Functions that only read a parameter object (the `snd_pcm_hw_params_get_*`
/// family) are plain helpers in the extension: they cannot fail in a way worth forcing.
package protocol PCMOperations: Sendable {
    func open(_ pcm: inout OpaquePointer?, name: String, stream: snd_pcm_stream_t, config: OpaquePointer?) -> Int32
    func close(_ pcm: OpaquePointer) -> Int32
    func hardwareParametersAny(_ pcm: OpaquePointer, _ params: OpaquePointer) -> Int32
    func setAccess(_ pcm: OpaquePointer, _ params: OpaquePointer, _ access: snd_pcm_access_t) -> Int32
    func setFormat(_ pcm: OpaquePointer, _ params: OpaquePointer, _ format: snd_pcm_format_t) -> Int32
    func testFormat(_ pcm: OpaquePointer, _ params: OpaquePointer, _ format: snd_pcm_format_t) -> Int32
    func setChannels(_ pcm: OpaquePointer, _ params: OpaquePointer, _ channels: UInt32) -> Int32
    func setRateResample(_ pcm: OpaquePointer, _ params: OpaquePointer, _ enabled: Bool) -> Int32
    func setRateNear(_ pcm: OpaquePointer, _ params: OpaquePointer, _ rate: inout UInt32) -> Int32
    func setBufferTimeNear(_ pcm: OpaquePointer, _ params: OpaquePointer, _ microseconds: inout UInt32) -> Int32
    func setPeriodTimeNear(_ pcm: OpaquePointer, _ params: OpaquePointer, _ microseconds: inout UInt32) -> Int32
    func installHardwareParameters(_ pcm: OpaquePointer, _ params: OpaquePointer) -> Int32
    func readInterleaved(_ pcm: OpaquePointer, _ buffer: UnsafeMutableRawPointer, _ frames: Int) -> Int
    func writeInterleaved(_ pcm: OpaquePointer, _ buffer: UnsafeRawPointer, _ frames: Int) -> Int
    func prepare(_ pcm: OpaquePointer) -> Int32
    func recover(_ pcm: OpaquePointer, _ code: Int32, silent: Bool) -> Int32
    func resume(_ pcm: OpaquePointer) -> Int32
    func drain(_ pcm: OpaquePointer) -> Int32
    func drop(_ pcm: OpaquePointer) -> Int32
    func delay(_ pcm: OpaquePointer, _ frames: inout Int) -> Int32
    func state(_ pcm: OpaquePointer) -> snd_pcm_state_t
    func wait(_ pcm: OpaquePointer, milliseconds: Int32) -> Int32
    func availableUpdate(_ pcm: OpaquePointer) -> Int
    func status(_ pcm: OpaquePointer, _ status: OpaquePointer) -> PCMStatusSnapshot
    func setNonblocking(_ pcm: OpaquePointer, _ enabled: Bool) -> Int32
}

/// The parts of `snd_pcm_status` the capture loop uses to measure an overrun.
package struct PCMStatusSnapshot: Sendable, Equatable {
    /// `snd_pcm_status`'s result: 0 or a negative errno code.
    var code: Int32
    /// The state at the time of the status call.
    var state: snd_pcm_state_t
    /// When the stream was last started or stopped (an xrun stops it).
    var triggerTime: timespec
    /// When the status was taken, on the same clock.
    var statusTime: timespec

    package static func == (lhs: PCMStatusSnapshot, rhs: PCMStatusSnapshot) -> Bool {
        lhs.code == rhs.code && lhs.state == rhs.state
            && lhs.triggerTime.tv_sec == rhs.triggerTime.tv_sec
            && lhs.triggerTime.tv_nsec == rhs.triggerTime.tv_nsec
            && lhs.statusTime.tv_sec == rhs.statusTime.tv_sec
            && lhs.statusTime.tv_nsec == rhs.statusTime.tv_nsec
    }
}

extension PCMOperations {
    package func open(_ pcm: inout OpaquePointer?, name: String, stream: snd_pcm_stream_t, config: OpaquePointer?) -> Int32 {
        if let config {
            return snd_pcm_open_lconf(&pcm, name, stream, 0, config)
        }
        return snd_pcm_open(&pcm, name, stream, 0)
    }

    package func close(_ pcm: OpaquePointer) -> Int32 { snd_pcm_close(pcm) }

    package func hardwareParametersAny(_ pcm: OpaquePointer, _ params: OpaquePointer) -> Int32 {
        snd_pcm_hw_params_any(pcm, params)
    }

    package func setAccess(_ pcm: OpaquePointer, _ params: OpaquePointer, _ access: snd_pcm_access_t) -> Int32 {
        snd_pcm_hw_params_set_access(pcm, params, access)
    }

    package func setFormat(_ pcm: OpaquePointer, _ params: OpaquePointer, _ format: snd_pcm_format_t) -> Int32 {
        snd_pcm_hw_params_set_format(pcm, params, format)
    }

    package func testFormat(_ pcm: OpaquePointer, _ params: OpaquePointer, _ format: snd_pcm_format_t) -> Int32 {
        snd_pcm_hw_params_test_format(pcm, params, format)
    }

    package func setChannels(_ pcm: OpaquePointer, _ params: OpaquePointer, _ channels: UInt32) -> Int32 {
        snd_pcm_hw_params_set_channels(pcm, params, channels)
    }

    package func setRateResample(_ pcm: OpaquePointer, _ params: OpaquePointer, _ enabled: Bool) -> Int32 {
        snd_pcm_hw_params_set_rate_resample(pcm, params, enabled ? 1 : 0)
    }

    package func setRateNear(_ pcm: OpaquePointer, _ params: OpaquePointer, _ rate: inout UInt32) -> Int32 {
        snd_pcm_hw_params_set_rate_near(pcm, params, &rate, nil)
    }

    package func setBufferTimeNear(_ pcm: OpaquePointer, _ params: OpaquePointer, _ microseconds: inout UInt32) -> Int32 {
        snd_pcm_hw_params_set_buffer_time_near(pcm, params, &microseconds, nil)
    }

    package func setPeriodTimeNear(_ pcm: OpaquePointer, _ params: OpaquePointer, _ microseconds: inout UInt32) -> Int32 {
        snd_pcm_hw_params_set_period_time_near(pcm, params, &microseconds, nil)
    }

    package func installHardwareParameters(_ pcm: OpaquePointer, _ params: OpaquePointer) -> Int32 {
        snd_pcm_hw_params(pcm, params)
    }

    package func readInterleaved(_ pcm: OpaquePointer, _ buffer: UnsafeMutableRawPointer, _ frames: Int) -> Int {
        snd_pcm_readi(pcm, buffer, snd_pcm_uframes_t(frames))
    }

    package func writeInterleaved(_ pcm: OpaquePointer, _ buffer: UnsafeRawPointer, _ frames: Int) -> Int {
        snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(frames))
    }

    package func prepare(_ pcm: OpaquePointer) -> Int32 { snd_pcm_prepare(pcm) }

    package func recover(_ pcm: OpaquePointer, _ code: Int32, silent: Bool) -> Int32 {
        snd_pcm_recover(pcm, code, silent ? 1 : 0)
    }

    package func resume(_ pcm: OpaquePointer) -> Int32 { snd_pcm_resume(pcm) }

    package func drain(_ pcm: OpaquePointer) -> Int32 { snd_pcm_drain(pcm) }

    package func drop(_ pcm: OpaquePointer) -> Int32 { snd_pcm_drop(pcm) }

    package func delay(_ pcm: OpaquePointer, _ frames: inout Int) -> Int32 {
        var delay: snd_pcm_sframes_t = 0
        let code = snd_pcm_delay(pcm, &delay)
        frames = delay
        return code
    }

    package func state(_ pcm: OpaquePointer) -> snd_pcm_state_t { snd_pcm_state(pcm) }

    package func availableUpdate(_ pcm: OpaquePointer) -> Int { snd_pcm_avail_update(pcm) }

    package func wait(_ pcm: OpaquePointer, milliseconds: Int32) -> Int32 { snd_pcm_wait(pcm, milliseconds) }

    package func setNonblocking(_ pcm: OpaquePointer, _ enabled: Bool) -> Int32 { snd_pcm_nonblock(pcm, enabled ? 1 : 0) }

    package func status(_ pcm: OpaquePointer, _ status: OpaquePointer) -> PCMStatusSnapshot {
        let code = snd_pcm_status(pcm, status)
        var trigger = timespec()
        var now = timespec()
        snd_pcm_status_get_trigger_htstamp(status, &trigger)
        snd_pcm_status_get_htstamp(status, &now)
        return PCMStatusSnapshot(
            code: code, state: snd_pcm_status_get_state(status), triggerTime: trigger, statusTime: now)
    }

    // MARK: Reading a parameter object (no device involved)

    package func rateRange(_ params: OpaquePointer) -> ClosedRange<Int>? {
        var low: UInt32 = 0
        var high: UInt32 = 0
        guard snd_pcm_hw_params_get_rate_min(params, &low, nil) >= 0,
            snd_pcm_hw_params_get_rate_max(params, &high, nil) >= 0, low <= high
        else { return nil }
        return Int(low)...Int(high)
    }

    package func channelRange(_ params: OpaquePointer) -> ClosedRange<Int>? {
        var low: UInt32 = 0
        var high: UInt32 = 0
        guard snd_pcm_hw_params_get_channels_min(params, &low) >= 0,
            snd_pcm_hw_params_get_channels_max(params, &high) >= 0, low <= high
        else { return nil }
        return Int(low)...Int(high)
    }

    package func negotiatedRate(_ params: OpaquePointer) -> Int? {
        var rate: UInt32 = 0
        return snd_pcm_hw_params_get_rate(params, &rate, nil) >= 0 ? Int(rate) : nil
    }

    package func negotiatedChannels(_ params: OpaquePointer) -> Int? {
        var channels: UInt32 = 0
        return snd_pcm_hw_params_get_channels(params, &channels) >= 0 ? Int(channels) : nil
    }

    package func negotiatedPeriodFrames(_ params: OpaquePointer) -> Int? {
        var frames: snd_pcm_uframes_t = 0
        return snd_pcm_hw_params_get_period_size(params, &frames, nil) >= 0 ? Int(frames) : nil
    }

    package func negotiatedBufferFrames(_ params: OpaquePointer) -> Int? {
        var frames: snd_pcm_uframes_t = 0
        return snd_pcm_hw_params_get_buffer_size(params, &frames) >= 0 ? Int(frames) : nil
    }

    package func formatName(_ format: snd_pcm_format_t) -> String? {
        snd_pcm_format_name(format).map { String(cString: $0) }
    }

    package func allocateHardwareParameters() -> OpaquePointer? {
        var params: OpaquePointer?
        return snd_pcm_hw_params_malloc(&params) == 0 ? params : nil
    }

    package func freeHardwareParameters(_ params: OpaquePointer) { snd_pcm_hw_params_free(params) }

    package func allocateStatus() -> OpaquePointer? {
        var status: OpaquePointer?
        return snd_pcm_status_malloc(&status) == 0 ? status : nil
    }

    package func freeStatus(_ status: OpaquePointer) { snd_pcm_status_free(status) }
}

/// The real alsa-lib calls.
package struct SystemPCMOperations: PCMOperations {
    package init() {}
}
