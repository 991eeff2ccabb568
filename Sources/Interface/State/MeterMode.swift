import Metering

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

    /// Everything about the mode, in one place: adding a mode is a case and its descriptor
    /// (`m` cycles the cases in their order, and its help line names them).
    public var descriptor: MeterModeDescriptor {
        switch self {
        case .digital:
            MeterModeDescriptor(
                name: "digital peak", readingLabel: "rms",
                explanation: "Meter: digital peak: the bar is the average level, the mark beyond it the peak; speech is good at -24 to -12 dB (IEC 60268-18).",
                goodLevel: -24 ... -12, meter: nil)
        case .ppm1:
            MeterModeDescriptor(
                name: "PPM type I", readingLabel: "ppm",
                explanation: "Meter: PPM type I: the bar jumps to each peak and falls slowly; speech is good at -18 to -6 dB (IEC 60268-10, DIN).",
                goodLevel: -18 ... -6
            ) { PeakProgrammeMeter(kind: .typeI, channels: $0, sampleRate: $1) }
        case .ppm2:
            MeterModeDescriptor(
                name: "PPM type II", readingLabel: "ppm",
                explanation: "Meter: PPM type II: the bar rises to each peak, a little slower than type I; speech is good at -18 to -6 dB (IEC 60268-10, BBC/EBU).",
                goodLevel: -18 ... -6
            ) { PeakProgrammeMeter(kind: .typeII, channels: $0, sampleRate: $1) }
        case .vu:
            MeterModeDescriptor(
                name: "VU", readingLabel: "vu", explanation: "Meter: VU: the bar moves as a needle would, with the average level; speech is good at -24 to -12 dB (IEC 60268-17).",
                goodLevel: -24 ... -12
            ) { VolumeUnitMeter(channels: $0, sampleRate: $1) }
        case .loudness:
            MeterModeDescriptor(
                name: "loudness", readingLabel: "M",
                explanation: "Meter: loudness: how loud it sounds, M now, S over 3 s; good within 3 LU of ┃, the target (EBU R128).",
                goodLevel: -3 ... 3, meter: nil)
        }
    }
}

/// What a meter mode is: its words and the meter behind its bar.
public struct MeterModeDescriptor: Sendable {
    /// The short name the scale line shows.
    public let name: String
    /// What a row's first number is, as its label says: the RMS level of the digital
    /// meter's bar, a PPM's or a VU's reading (the second is always the held sample peak).
    public let readingLabel: String
    /// What the mode is, for the status line when `m` selects it.
    public let explanation: String
    /// Where the bar's reading of a voice should sit while recording, the scale line's
    /// `──` under the LEDs: dBFS, or in the loudness mode LU from the target. A quasi-peak
    /// (PPM) reads a voice's peaks, so −18…−6 dBFS leaves 6 dB of headroom; the RMS bar and
    /// the VU read about 10 dB lower on speech (its crest factor), so −24…−12; loudness
    /// within 3 LU of the target needs no more than a gentle normalisation.
    public let goodLevel: ClosedRange<Float>
    /// Makes the meter whose reading the bar shows, for (channels, sample rate), fed every
    /// sample of the input whatever the mode (so switching shows a settled reading at once);
    /// `nil`: the bar is the engine's per-tick RMS.
    public let meter: (@Sendable (_ channels: Int, _ sampleRate: Int) -> any ChannelLevelMeter)?

    public init(
        name: String, readingLabel: String, explanation: String, goodLevel: ClosedRange<Float>,
        meter: (@Sendable (_ channels: Int, _ sampleRate: Int) -> any ChannelLevelMeter)?
    ) {
        self.name = name
        self.readingLabel = readingLabel
        self.explanation = explanation
        self.goodLevel = goodLevel
        self.meter = meter
    }
}

/// The sample-level readings of the input at one tick, beside the engine's per-tick levels.
public struct BallisticReadings: Sendable, Hashable {
    /// Each mode's reading per channel, dBFS, for the modes with a meter of their own
    /// (`MeterModeDescriptor.meter`): a PPM's highest indication since the previous tick, the VU needle.
    public var levels: [MeterMode: [Float]]
    /// Momentary loudness of the programme (400 ms), LUFS; `nil` before the first 100 ms.
    public var momentaryLoudness: Double?
    /// Short-term loudness of the programme (3 s), LUFS; `nil` before the first 100 ms.
    public var shortTermLoudness: Double?

    public init(levels: [MeterMode: [Float]], momentaryLoudness: Double?, shortTermLoudness: Double?) {
        self.levels = levels
        self.momentaryLoudness = momentaryLoudness
        self.shortTermLoudness = shortTermLoudness
    }
}
