import CALSA
import Glibc
import SoundFiles

extension ALSAPCM {
    /// Sets the hardware parameters for `format` and reports what was negotiated.
    ///
    /// Interleaved read/write access, the sample format and channel count exactly,
    /// the rate as near as the device goes (with alsa-lib's resampling allowed, so
    /// `plug` and `default` convert to the exact request), a buffer of about
    /// `bufferMicroseconds` and periods of about `periodMicroseconds`. The device
    /// is prepared afterwards.
    ///
    /// - Parameters:
    ///   - format: The format the caller wants to read or write.
    ///   - periodMicroseconds: Requested period length (default 25 ms).
    ///   - bufferMicroseconds: Requested buffer length (default 200 ms, 8 periods).
    /// - Returns: The negotiated setup.
    /// - Throws: `ALSAError` naming the refused parameter and, in `detail`, what
    ///   the device offers instead.
    @discardableResult
    public func configure(
        _ format: StreamFormat, periodMicroseconds: Int = 25_000, bufferMicroseconds: Int = 200_000
    ) throws(ALSAError) -> ALSAStreamSetup {
        guard let handle = openHandle else {
            throw makeError(-EBADFD, function: "snd_pcm_hw_params", detail: "the device is closed")
        }
        guard let params = operations.allocateHardwareParameters() else {
            throw makeError(-ENOMEM, function: "snd_pcm_hw_params_malloc")
        }
        defer { operations.freeHardwareParameters(params) }

        func step(_ function: String, refused what: String? = nil, _ call: () -> Int32) throws(ALSAError) {
            ALSAErrorCapture.clear()
            let code = call()
            guard code < 0 else { return }
            let message = ALSAErrorCapture.lastMessage()
            var detail = ""
            if let what {
                detail = "\(what) was refused for \(format)"
                if let offered = capabilities(handle) { detail += "; it offers \(offered)" }
            }
            throw ALSAError(
                code: code, function: function, device: device, stream: stream, alsaMessage: message, detail: detail)
        }

        try step("snd_pcm_hw_params_any") { operations.hardwareParametersAny(handle, params) }
        try step("snd_pcm_hw_params_set_access", refused: "interleaved read/write access") {
            operations.setAccess(handle, params, SND_PCM_ACCESS_RW_INTERLEAVED)
        }
        try step("snd_pcm_hw_params_set_rate_resample") { operations.setRateResample(handle, params, true) }
        try step("snd_pcm_hw_params_set_format", refused: "sample format \(Self.alsaFormatName(format.sampleFormat))") {
            operations.setFormat(handle, params, Self.alsaFormat(format.sampleFormat))
        }
        try step("snd_pcm_hw_params_set_channels", refused: "\(format.channels) channels") {
            operations.setChannels(handle, params, UInt32(clamping: format.channels))
        }
        var rate = UInt32(clamping: format.sampleRate)
        try step("snd_pcm_hw_params_set_rate_near", refused: "the rate \(format.sampleRate) Hz") {
            operations.setRateNear(handle, params, &rate)
        }
        var bufferTime = UInt32(clamping: bufferMicroseconds)
        try step("snd_pcm_hw_params_set_buffer_time_near", refused: "a \(bufferMicroseconds / 1000) ms buffer") {
            operations.setBufferTimeNear(handle, params, &bufferTime)
        }
        var periodTime = UInt32(clamping: periodMicroseconds)
        try step("snd_pcm_hw_params_set_period_time_near", refused: "a \(periodMicroseconds / 1000) ms period") {
            operations.setPeriodTimeNear(handle, params, &periodTime)
        }
        try step("snd_pcm_hw_params", refused: "the combination") {
            operations.installHardwareParameters(handle, params)
        }

        let negotiated = ALSAStreamSetup(
            format: StreamFormat(
                sampleRate: operations.negotiatedRate(params) ?? Int(rate),
                channels: operations.negotiatedChannels(params) ?? format.channels,
                sampleFormat: format.sampleFormat),
            periodFrames: operations.negotiatedPeriodFrames(params) ?? 0,
            bufferFrames: operations.negotiatedBufferFrames(params) ?? 0)
        record(setup: negotiated)
        return negotiated
    }

    /// What the open device can do, from a fresh parameter space.
    public func capabilities() -> ALSADeviceCapabilities? {
        guard let handle = openHandle else { return nil }
        return capabilities(handle)
    }

    private func capabilities(_ handle: OpaquePointer) -> ALSADeviceCapabilities? {
        guard let params = operations.allocateHardwareParameters() else { return nil }
        defer { operations.freeHardwareParameters(params) }
        guard operations.hardwareParametersAny(handle, params) >= 0 else { return nil }
        var formats: [String] = []
        for raw in 0...SND_PCM_FORMAT_LAST.rawValue {
            let candidate = snd_pcm_format_t(raw)
            if operations.testFormat(handle, params, candidate) == 0, let name = operations.formatName(candidate) {
                formats.append(name)
            }
        }
        return ALSADeviceCapabilities(
            rates: operations.rateRange(params), channels: operations.channelRange(params), formats: formats)
    }

    static func alsaFormat(_ format: SampleFormat) -> snd_pcm_format_t {
        switch format {
        case .int16: SND_PCM_FORMAT_S16_LE
        case .int32: SND_PCM_FORMAT_S32_LE
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        }
    }

    static func alsaFormatName(_ format: SampleFormat) -> String {
        switch format {
        case .int16: "S16_LE"
        case .int32: "S32_LE"
        case .float32: "FLOAT_LE"
        }
    }
}
