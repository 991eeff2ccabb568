/// What the LED rows show (`m` cycles, `meter.mode` in the config sets the start).
///
/// While a memo plays the rows always show the player's levels as `digital`: the ballistic
/// processors and the loudness meter watch the input, not the player.
public enum MeterMode: String, Sendable, Hashable, CaseIterable {
    /// Per-tick RMS with the IEC 60268-18 digital peak held on top (the default).
    case digital
    /// IEC 60268-10 type I quasi-peak (DIN/Nordic): 5 ms integration, 20 dB fall in 1.7 s.
    case ppm1
    /// IEC 60268-10 type II quasi-peak (BBC/EBU): 10 ms integration, 24 dB fall in 2.8 s.
    case ppm2
    /// IEC 60268-17 VU: 99 % in 300 ms with the needle's 1.25 % overshoot.
    case vu
    /// Momentary and short-term loudness (EBU R128) of the whole programme against a target.
    case loudness

    /// The next mode in `m`'s cycle.
    public var next: MeterMode {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// What a row's first number is, as its label says: the RMS level of the digital
    /// meter's bar, a PPM's or a VU's reading (the second is always the held sample peak).
    public var readingLabel: String {
        switch self {
        case .digital: "rms"
        case .ppm1, .ppm2: "ppm"
        case .vu: "vu"
        case .loudness: "M"
        }
    }

    /// The short name the scale line shows.
    public var name: String {
        switch self {
        case .digital: "digital peak"
        case .ppm1: "PPM type I"
        case .ppm2: "PPM type II"
        case .vu: "VU"
        case .loudness: "loudness"
        }
    }

    /// What the mode is, for the status line when `m` selects it.
    public var explanation: String {
        switch self {
        case .digital: "Meter: digital peak (IEC 60268-18): RMS bar, sample peak held 1 s, falls 20 dB in 1.7 s."
        case .ppm1: "Meter: PPM type I (IEC 60268-10, DIN): 5 ms integration, falls 20 dB in 1.7 s."
        case .ppm2: "Meter: PPM type II (IEC 60268-10, BBC/EBU): 10 ms integration, falls 24 dB in 2.8 s."
        case .vu: "Meter: VU (IEC 60268-17): 300 ms needle, reads a sine's RMS level."
        case .loudness: "Meter: loudness (EBU R128): M momentary 400 ms, S short-term 3 s; ┃ marks the target."
        }
    }
}

/// The sample-level readings of the input at one tick, beside the engine's per-tick levels.
public struct BallisticReadings: Sendable, Hashable {
    /// IEC 60268-10 type I indication per channel, dBFS (highest since the previous tick).
    public var ppmTypeI: [Float]
    /// IEC 60268-10 type II indication per channel, dBFS (highest since the previous tick).
    public var ppmTypeII: [Float]
    /// VU needle per channel, dBFS (a sine's RMS level).
    public var vu: [Float]
    /// Momentary loudness of the programme (400 ms), LUFS; `nil` before the first 100 ms.
    public var momentaryLoudness: Double?
    /// Short-term loudness of the programme (3 s), LUFS; `nil` before the first 100 ms.
    public var shortTermLoudness: Double?

    public init(ppmTypeI: [Float], ppmTypeII: [Float], vu: [Float], momentaryLoudness: Double?, shortTermLoudness: Double?) {
        self.ppmTypeI = ppmTypeI
        self.ppmTypeII = ppmTypeII
        self.vu = vu
        self.momentaryLoudness = momentaryLoudness
        self.shortTermLoudness = shortTermLoudness
    }
}
