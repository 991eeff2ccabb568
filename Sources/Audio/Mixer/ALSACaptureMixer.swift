import CALSA

/// The capture volume and switch of an input, as alsa-lib's simple mixer or the sound server
/// reports them.
public struct CaptureGain: Sendable, Equatable {
    /// The mixer control, e.g. `Capture`; a sound server's source's description.
    public var control: String
    /// The volume within the control's range, 0–100 (the mean over its channels); for a sound
    /// server's source the server's own percentage (100 % is 0 dB, up to 150 % and beyond).
    public var percent: Double
    /// The volume in dB (the mean over its channels; a server source's loudest channel), when
    /// the control has a dB scale.
    public var decibels: Double?
    /// The dB scale's ends, when it has one.
    public var decibelRange: ClosedRange<Double>?
    /// Whether capture is switched on; `nil` when the control has no switch.
    public var isOn: Bool?

    public init(control: String, percent: Double, decibels: Double?, decibelRange: ClosedRange<Double>?, isOn: Bool?) {
        self.control = control
        self.percent = percent
        self.decibels = decibels
        self.decibelRange = decibelRange
        self.isOn = isOn
    }
}

/// Why the capture gain of an input cannot be read or set.
public enum CaptureGainError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The mixer (control device) behind the input cannot be opened or loaded.
    case noMixer(ALSAError)
    /// The mixer has no control with a capture volume; `controls` are those it has.
    case noCaptureControl(device: String, controls: [String])
    /// A change in dB asked of a control without a dB scale.
    case noDecibelScale(control: String)
    /// alsa-lib refused a read or a change.
    case failed(ALSAError)
    /// The sound server refused, or has no such source (`PulseSourceVolume`).
    case soundServer(PulseError)
    /// The input has no capture volume (a tone, a file, a stream); `input` is its name.
    case noCaptureVolume(input: String)

    public var description: String {
        switch self {
        case .noMixer(let error): "cannot open the mixer: \(error.reason)"
            + (error.alsaMessage.isEmpty ? "" : " (ALSA: \(error.alsaMessage))")
        case .noCaptureControl(let device, let controls):
            "the mixer \"\(device)\" has no capture volume control"
                + (controls.isEmpty ? "" : " (its controls: \(controls.joined(separator: ", ")))")
        case .noDecibelScale(let control): "the \(control) control has no dB scale: give a percentage (50%, +5%)"
        case .failed(let error): error.description
        case .soundServer(let error): error.description
        case .noCaptureVolume(let input):
            "\(input) has no capture volume: only ALSA inputs (alsa:NAME) and the sound server's sources (pulse:NAME) have one"
        }
    }
}

/// The capture control of an ALSA input, through the simple mixer API (`snd_mixer_*`) of the
/// card or control device behind it: `hw:N` for `hw:N,M`, `plughw:N,M` and the like, else the
/// input's own name (`pulse`, `pipewire`, `default`), whose plugins have a control of the same
/// name. Not thread-safe: one owner at a time.
public final class ALSACaptureMixer {
    /// The control device opened, e.g. `hw:0` or `pulse`.
    public let device: String
    private let mixer: OpaquePointer
    private let element: OpaquePointer
    private let name: String

    /// Opens the mixer behind ALSA input `input` and finds its capture control (`Capture` if
    /// there is one, else the first control with a capture volume).
    public init(input: String) throws(CaptureGainError) {
        ALSAErrorCapture.install()
        device = Self.mixerDevice(forInput: input)
        var handle: OpaquePointer?
        ALSAErrorCapture.clear()
        var code = snd_mixer_open(&handle, 0)
        guard code >= 0, let handle else {
            throw .noMixer(ALSAError(code: code, function: "snd_mixer_open", device: device, alsaMessage: ALSAErrorCapture.lastMessage()))
        }
        code = snd_mixer_attach(handle, device)
        if code >= 0 { code = snd_mixer_selem_register(handle, nil, nil) }
        if code >= 0 { code = snd_mixer_load(handle) }
        guard code >= 0 else {
            let message = ALSAErrorCapture.lastMessage()
            snd_mixer_close(handle)
            throw .noMixer(ALSAError(code: code, function: "snd_mixer_attach", device: device, alsaMessage: message))
        }
        var names: [String] = []
        var chosen: (OpaquePointer, String)?
        var element = snd_mixer_first_elem(handle)
        while let current = element {
            let elementName = snd_mixer_selem_get_name(current).map { String(cString: $0) } ?? "?"
            names.append(elementName)
            if snd_mixer_selem_has_capture_volume(current) != 0, chosen == nil || elementName == "Capture" {
                if chosen?.1 != "Capture" { chosen = (current, elementName) }
            }
            element = snd_mixer_elem_next(current)
        }
        guard let (found, foundName) = chosen else {
            snd_mixer_close(handle)
            throw .noCaptureControl(device: device, controls: names)
        }
        mixer = handle
        self.element = found
        name = foundName
    }

    deinit {
        snd_mixer_close(mixer)
    }

    /// The control device for an input name: the card of a `hw:`-like device, else the name.
    public static func mixerDevice(forInput input: String) -> String {
        guard let colon = input.firstIndex(of: ":") else { return input }
        let kind = input[..<colon]
        guard ["hw", "plughw", "sysdefault", "dsnoop", "front"].contains(String(kind)) else { return input }
        let card = input[input.index(after: colon)...].split(separator: ",").first.map(String.init) ?? ""
        return card.isEmpty ? input : "hw:" + card
    }

    /// The channels the control has for capture.
    private var channels: [snd_mixer_selem_channel_id_t] {
        (0...Int32(SND_MIXER_SCHN_LAST.rawValue)).map { snd_mixer_selem_channel_id_t(rawValue: $0) }
            .filter { snd_mixer_selem_has_capture_channel(element, $0) != 0 }
    }

    /// The control's state now.
    public func read() throws(CaptureGainError) -> CaptureGain {
        _ = snd_mixer_handle_events(mixer)
        var low = 0, high = 0
        try check(snd_mixer_selem_get_capture_volume_range(element, &low, &high), "snd_mixer_selem_get_capture_volume_range")
        let channels = self.channels.isEmpty ? [SND_MIXER_SCHN_MONO] : self.channels
        var raw = 0.0, decibelSum = 0.0
        for channel in channels {
            var value = 0
            try check(snd_mixer_selem_get_capture_volume(element, channel, &value), "snd_mixer_selem_get_capture_volume")
            raw += Double(value)
            var centibels = 0
            if snd_mixer_selem_get_capture_dB(element, channel, &centibels) >= 0 { decibelSum += Double(centibels) / 100 }
        }
        raw /= Double(channels.count)
        let percent = high > low ? (raw - Double(low)) / Double(high - low) * 100 : 0
        let range = decibelRange
        var isOn: Bool?
        if snd_mixer_selem_has_capture_switch(element) != 0 {
            var on: Int32 = 0
            try check(snd_mixer_selem_get_capture_switch(element, channels[0], &on), "snd_mixer_selem_get_capture_switch")
            isOn = on != 0
        }
        return CaptureGain(
            control: name, percent: percent, decibels: range.map { _ in decibelSum / Double(channels.count) },
            decibelRange: range, isOn: isOn)
    }

    private var decibelRange: ClosedRange<Double>? {
        var low = 0, high = 0
        guard snd_mixer_selem_get_capture_dB_range(element, &low, &high) >= 0, high > low else { return nil }
        return Double(low) / 100...Double(high) / 100
    }

    /// Sets every channel to `percent` (0–100, clamped) of the control's range.
    public func setPercent(_ percent: Double) throws(CaptureGainError) {
        var low = 0, high = 0
        try check(snd_mixer_selem_get_capture_volume_range(element, &low, &high), "snd_mixer_selem_get_capture_volume_range")
        let clamped = min(100, max(0, percent.isFinite ? percent : 0))
        let value = low + Int((Double(high - low) * clamped / 100).rounded())
        try check(snd_mixer_selem_set_capture_volume_all(element, value), "snd_mixer_selem_set_capture_volume_all")
    }

    /// Sets every channel to `decibels`, clamped to the scale (the nearest step at or below).
    public func setDecibels(_ decibels: Double) throws(CaptureGainError) {
        guard let range = decibelRange else { throw .noDecibelScale(control: name) }
        let clamped = min(range.upperBound, max(range.lowerBound, decibels))
        try check(snd_mixer_selem_set_capture_dB_all(element, Int((clamped * 100).rounded()), -1), "snd_mixer_selem_set_capture_dB_all")
    }

    /// Changes the volume by `decibels`, rounding away from the current step, so that a change
    /// of 1 dB on a control with coarser steps still moves it by one step.
    public func change(byDecibels decibels: Double) throws(CaptureGainError) {
        guard let range = decibelRange, let current = try read().decibels else { throw .noDecibelScale(control: name) }
        let target = min(range.upperBound, max(range.lowerBound, current + decibels))
        try check(
            snd_mixer_selem_set_capture_dB_all(element, Int((target * 100).rounded()), decibels >= 0 ? 1 : -1),
            "snd_mixer_selem_set_capture_dB_all")
    }

    /// Changes the volume by `percent` points of the control's range.
    public func change(byPercent percent: Double) throws(CaptureGainError) {
        try setPercent(try read().percent + percent)
    }

    /// One step up or down, as the app's `<` and `>` make it: 1 dB on a control with a dB
    /// scale, else 1 % of its range (and at least one of its raw steps).
    public func step(up: Bool) throws(CaptureGainError) {
        if decibelRange != nil {
            try change(byDecibels: up ? 1 : -1)
            return
        }
        var low = 0, high = 0
        try check(snd_mixer_selem_get_capture_volume_range(element, &low, &high), "snd_mixer_selem_get_capture_volume_range")
        let onePercent = max(Double(high - low) / 100, 1)
        let channels = self.channels.isEmpty ? [SND_MIXER_SCHN_MONO] : self.channels
        var value = 0
        try check(snd_mixer_selem_get_capture_volume(element, channels[0], &value), "snd_mixer_selem_get_capture_volume")
        // From the current percentage on the 1 % grid, so that steps land on whole percentages.
        let percent = (Double(value - low) / onePercent).rounded() + (up ? 1 : -1)
        let target = min(max(low + Int((percent * onePercent).rounded()), low), high)
        try check(snd_mixer_selem_set_capture_volume_all(element, target), "snd_mixer_selem_set_capture_volume_all")
    }

    /// Switches capture on or off (every channel).
    public func setSwitch(on: Bool) throws(CaptureGainError) {
        guard snd_mixer_selem_has_capture_switch(element) != 0 else {
            throw .failed(ALSAError(code: -ENOSYS, function: "snd_mixer_selem_set_capture_switch_all", device: device, detail: "the \(name) control has no capture switch"))
        }
        try check(snd_mixer_selem_set_capture_switch_all(element, on ? 1 : 0), "snd_mixer_selem_set_capture_switch_all")
    }

    private func check(_ code: Int32, _ function: String) throws(CaptureGainError) {
        guard code < 0 else { return }
        throw .failed(ALSAError(code: code, function: function, device: device, alsaMessage: ALSAErrorCapture.lastMessage()))
    }
}
