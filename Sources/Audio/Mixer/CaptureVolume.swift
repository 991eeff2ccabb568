/// The capture volume of an input wherever it lives: the ALSA mixer control behind an
/// `alsa:` input, or a sound server's source (`pulse:`) through the server. `voicememo gain`
/// and the app's `<` `>` `M` open one per change and answer with its `CaptureGain`.
public enum CaptureVolume {
    case mixer(ALSACaptureMixer)
    case serverSource(PulseSourceVolume)

    /// Opens the control behind `input`.
    ///
    /// - Throws: `CaptureGainError`: `.noCaptureVolume` for a tone, a file, a stream or two
    ///   joined sources (each has its own);
    ///   `.soundServer` with `.noSuchSource` for a source the server does not have; the
    ///   mixer's own errors.
    public init(for input: InputSource) throws(CaptureGainError) {
        switch input {
        case .alsa(let device, _):
            self = .mixer(try ALSACaptureMixer(input: device))
        case .pulse(let source, let server, _):
            do {
                self = .serverSource(try PulseSourceVolume(source: source, server: server))
            } catch {
                throw .soundServer(error)
            }
        case .tone, .file, .url, .joined:
            // Two sources have two volumes: each is set by its own name.
            throw .noCaptureVolume(input: input.description)
        }
    }

    /// Where the control is: the mixer device (`hw:0`, `pulse`) or the server's address.
    public var device: String {
        switch self {
        case .mixer(let mixer): mixer.device
        case .serverSource(let volume): volume.server
        }
    }

    /// "mixer hw:0" or "sound server unix:/run/user/1000/pulse/native".
    public var location: String {
        switch self {
        case .mixer(let mixer): "mixer \(mixer.device)"
        case .serverSource(let volume): "sound server \(volume.server)"
        }
    }

    public func read() throws(CaptureGainError) -> CaptureGain {
        switch self {
        case .mixer(let mixer): return try mixer.read()
        case .serverSource(let volume): return try server { () throws(PulseError) in try volume.read() }
        }
    }

    /// Sets every channel to `percent` of the control's range (the server's own percentage).
    public func setPercent(_ percent: Double) throws(CaptureGainError) {
        switch self {
        case .mixer(let mixer): try mixer.setPercent(percent)
        case .serverSource(let volume): try server { () throws(PulseError) in try volume.setPercent(percent) }
        }
    }

    public func setDecibels(_ decibels: Double) throws(CaptureGainError) {
        switch self {
        case .mixer(let mixer): try mixer.setDecibels(decibels)
        case .serverSource(let volume): try server { () throws(PulseError) in try volume.setDecibels(decibels) }
        }
    }

    public func change(byDecibels decibels: Double) throws(CaptureGainError) {
        switch self {
        case .mixer(let mixer): try mixer.change(byDecibels: decibels)
        case .serverSource(let volume): try server { () throws(PulseError) in try volume.change(byDecibels: decibels) }
        }
    }

    public func change(byPercent percent: Double) throws(CaptureGainError) {
        switch self {
        case .mixer(let mixer): try mixer.change(byPercent: percent)
        case .serverSource(let volume): try server { () throws(PulseError) in try volume.change(byPercent: percent) }
        }
    }

    /// One step of `<` or `>`: 1 dB where there is a dB scale, else 1 %.
    public func step(up: Bool) throws(CaptureGainError) {
        switch self {
        case .mixer(let mixer): try mixer.step(up: up)
        case .serverSource(let volume): try server { () throws(PulseError) in try volume.step(up: up) }
        }
    }

    /// Switches capture on (unmutes) or off (mutes).
    public func setSwitch(on: Bool) throws(CaptureGainError) {
        switch self {
        case .mixer(let mixer): try mixer.setSwitch(on: on)
        case .serverSource(let volume): try server { () throws(PulseError) in try volume.setSwitch(on: on) }
        }
    }

    /// Flips the switch (a control without one is taken as on, so it is switched off).
    public func toggleSwitch() throws(CaptureGainError) {
        try setSwitch(on: !(try read().isOn ?? true))
    }

    private func server<Value>(_ body: () throws(PulseError) -> Value) throws(CaptureGainError) -> Value {
        do {
            return try body()
        } catch {
            throw .soundServer(error)
        }
    }
}
