import SoundFiles

/// What a device agreed to in `ALSAPCM.configure`: the format and the buffer geometry.
public struct ALSAStreamSetup: Sendable, Hashable, CustomStringConvertible {
    /// The negotiated format (the rate may differ from the request on devices
    /// without resampling; `plug`-based devices convert to the exact request).
    public var format: StreamFormat
    /// Frames per period: how much one wake-up delivers.
    public var periodFrames: Int
    /// Frames in the device's ring buffer: how long a stalled reader may lag
    /// before an overrun.
    public var bufferFrames: Int

    public init(format: StreamFormat, periodFrames: Int, bufferFrames: Int) {
        self.format = format
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
    }

    public var description: String {
        "\(format), period \(periodFrames) frames, buffer \(bufferFrames) frames"
    }
}

/// What a device can do, read from a fresh `snd_pcm_hw_params_any`; used to tell
/// a person why a request was refused.
public struct ALSADeviceCapabilities: Sendable, Hashable, CustomStringConvertible {
    /// The lowest and highest sample rates, in Hz.
    public var rates: ClosedRange<Int>?
    /// The lowest and highest channel counts.
    public var channels: ClosedRange<Int>?
    /// The sample formats it accepts, by ALSA name (e.g. "S16_LE").
    public var formats: [String]

    public init(rates: ClosedRange<Int>?, channels: ClosedRange<Int>?, formats: [String]) {
        self.rates = rates
        self.channels = channels
        self.formats = formats
    }

    /// E.g. "rates 4000–192000 Hz, 1–10000 channels, formats S16_LE, S32_LE".
    public var description: String {
        var parts: [String] = []
        if let rates { parts.append(rates.count == 1 ? "rate \(rates.lowerBound) Hz" : "rates \(rates.lowerBound)–\(rates.upperBound) Hz") }
        if let channels {
            parts.append(channels.count == 1 ? "\(channels.lowerBound) channel\(channels.lowerBound == 1 ? "" : "s")" : "\(channels.lowerBound)–\(channels.upperBound) channels")
        }
        parts.append(formats.isEmpty ? "no sample formats" : "formats " + formats.joined(separator: ", "))
        return parts.joined(separator: ", ")
    }
}
