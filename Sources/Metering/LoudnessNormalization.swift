import Glibc
/// A loudness target for an export: an integrated loudness (EBU R128, LUFS) and a true-peak
/// ceiling (dBTP) the copy must stay under. `podcast` is −16 LUFS under −1 dBTP.
public struct LoudnessTarget: Sendable, Hashable {
    /// The integrated loudness to reach, in LUFS.
    public var integrated: Double
    /// The highest true peak allowed, in dBTP.
    public var truePeak: Double

    /// The targets accepted: the meter's absolute gate up to full scale.
    public static let integratedRange = -70.0...0.0
    /// The highest ceiling accepted: a true peak above full scale clips in any decoder.
    public static let highestCeiling = 0.0
    /// The ceiling when none is given: the one podcast and broadcast specifications ask for.
    public static let defaultCeiling = -1.0
    /// The podcast target: −16 LUFS, −1 dBTP.
    public static let podcast = LoudnessTarget(integrated: -16, truePeak: defaultCeiling)

    public init(integrated: Double, truePeak: Double = Self.defaultCeiling) {
        self.integrated = integrated
        self.truePeak = truePeak
    }

    /// "-16 LUFS, -1 dBTP".
    public var description: String {
        "\(Self.figure(integrated)) LUFS, \(Self.figure(truePeak)) dBTP"
    }

    /// A figure to one decimal, without a trailing .0: -16, -0.5.
    public static func figure(_ value: Double) -> String {
        let tenths = Glibc.round(value * 10)
        let whole = Int(tenths / 10)
        let rest = Int(tenths) - whole * 10
        if rest == 0 { return "\(whole)" }
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return "\(sign)\(whole).\(abs(rest))"
    }
}

/// The plan of a loudness-normalised copy: pass 1 measures the original (`init`), each later
/// pass writes the copy with a gain and a true-peak limiter (`TruePeakLimiter`) and measures
/// what was written; `next(after:)` says whether that copy is right or what to try instead.
///
/// The first gain is target − measured. Where the limiter takes loudness away (peaky speech
/// brought up by 20 dB) the copy comes out quieter than the target: the next pass adds what
/// was missing. Where a lossy encoder's ringing lifts the decoded true peak over the ceiling,
/// the limiter's own ceiling is lowered by the excess. A copy within `aim` of the target and
/// under the ceiling is kept; after `maximumPasses` one within `tolerance` is kept, else the
/// target is out of reach (a loudness that a ceiling this low cannot hold).
///
/// The passes steer by the limiter's drive, gain − ceiling: a gain and a ceiling both lowered
/// by the same dB scale the limiter's output by exactly that much (it only ever multiplies),
/// so loudness = ceiling + F(drive) for one function F of the memo, rising with slope 1
/// where nothing is limited and less where the limiter acts. The next drive is the secant
/// through the last two passes' (drive, loudness − ceiling), which stays true when a pass
/// lowers the ceiling (a slope from the gain alone is not: an AAC copy of quiet speech brought
/// up by 45 dB, its ceiling lowered on most passes, ended 1 LU short after 8).
public struct LoudnessNormalization: Sendable, Equatable {
    /// What a pass measured in the copy it wrote.
    public struct Measurement: Sendable, Equatable {
        public var integratedLoudness: Double?
        public var truePeak: Double
        public init(integratedLoudness: Double?, truePeak: Double) {
            self.integratedLoudness = integratedLoudness
            self.truePeak = truePeak
        }
    }

    /// What to do after a pass.
    public enum Verdict: Sendable, Equatable {
        /// The copy is right.
        case done
        /// Write it again with the new `gain` and `limiterCeiling`.
        case again
        /// The target cannot be reached: the best copy measured `Measurement`.
        case unreachable(Measurement)
    }

    /// Why a memo cannot be normalised: too short, or silent.
    public enum Refusal: Error, Sendable, Equatable {
        /// Shorter than one 400 ms gating block (`LoudnessMeter.shortestMeasurable`).
        case tooShort(seconds: Double)
        /// Every 400 ms block is below the −70 LUFS absolute gate.
        case belowGate

        public var description: String {
            switch self {
            case .tooShort(let seconds):
                "it is \(Self.seconds(seconds)) s long, "
                    + "and an integrated loudness needs at least \(LoudnessMeter.shortestMeasurable) s (one 400 ms block)"
            case .belowGate:
                "its loudness cannot be measured: all of it is below the −70 LUFS gate (silence or nearly), "
                    + "so no gain would bring it to a target"
            }
        }

        private static func seconds(_ value: Double) -> String {
            let hundredths = Int(Glibc.round(value * 100))
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        }
    }

    /// Copies this close to the target are kept at once, in LU.
    public static let aim = 0.2
    /// Copies this close are kept after the last pass, in LU (the acceptance of an export).
    public static let tolerance = 0.5
    /// Passes that write the copy, at most.
    public static let maximumPasses = 8
    /// The limiter's ceiling starts this far under the target's, in dB: the margin for the
    /// gain that changes across the interpolation's 16 frames.
    public static let limiterMargin = 0.05

    public let target: LoudnessTarget
    /// The original's integrated loudness, in LUFS.
    public let measuredLoudness: Double
    /// The gain of the next pass, in dB.
    public private(set) var gain: Double
    /// The limiter's ceiling in the next pass, in dBTP.
    public private(set) var limiterCeiling: Double
    /// (gain, limiter ceiling, loudness measured) of every pass so far.
    public private(set) var passes: [(gain: Double, ceiling: Double, loudness: Double)] = []

    /// Pass 1: the original measured `loudness` (LUFS, `nil` below the gate) over `seconds`.
    public init(target: LoudnessTarget, measuredLoudness loudness: Double?, seconds: Double) throws(Refusal) {
        guard seconds >= LoudnessMeter.shortestMeasurable else { throw .tooShort(seconds: seconds) }
        guard let loudness, loudness.isFinite else { throw .belowGate }
        self.target = target
        measuredLoudness = loudness
        gain = target.integrated - loudness
        limiterCeiling = target.truePeak - Self.limiterMargin
    }

    /// The gain of the next pass as a factor.
    public var gainFactor: Float { Float(Decibels.toAmplitude(gain)) }
    /// The limiter's ceiling of the next pass as a factor of full scale.
    public var limiterCeilingFactor: Float { Float(Decibels.toAmplitude(limiterCeiling)) }

    /// Judges the copy a pass wrote and measured; sets the next pass's gain and ceiling.
    public mutating func next(after measured: Measurement) -> Verdict {
        guard let loudness = measured.integratedLoudness, loudness.isFinite else {
            // A gain brought it under the gate: never from a measurable original, but not a trap.
            return .unreachable(measured)
        }
        passes.append((gain, limiterCeiling, loudness))
        let miss = target.integrated - loudness
        let over = measured.truePeak - target.truePeak
        if abs(miss) <= Self.aim, over <= 0 { return .done }
        if passes.count >= Self.maximumPasses {
            return abs(miss) <= Self.tolerance && over <= 0 ? .done : .unreachable(measured)
        }
        let lastCeiling = limiterCeiling
        if over > 0 { limiterCeiling -= over + 2 * Self.limiterMargin }
        // What F must give under the next ceiling, against what the last drive gave.
        let shortfall = (target.integrated - limiterCeiling) - (loudness - lastCeiling)
        if abs(miss) > Self.aim / 2 || limiterCeiling != lastCeiling {
            gain = limiterCeiling + (gain - lastCeiling) + shortfall / slope()
        }
        return .again
    }

    /// LU of loudness − ceiling gained per dB of drive (gain − ceiling), from the last two
    /// passes: 1 without limiting, less with it; kept within 0.25…1 so one odd pass (a lossy
    /// encoder's loudness wobbles by a few hundredths) cannot send the gain far away.
    private func slope() -> Double {
        guard passes.count >= 2 else { return 1 }
        let last = passes[passes.count - 1]
        let before = passes[passes.count - 2]
        let step = (last.gain - last.ceiling) - (before.gain - before.ceiling)
        guard abs(step) > 1e-6 else { return 1 }
        let rise = (last.loudness - last.ceiling) - (before.loudness - before.ceiling)
        return min(1, max(0.25, rise / step))
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.target == b.target && a.measuredLoudness == b.measuredLoudness && a.gain == b.gain
            && a.limiterCeiling == b.limiterCeiling && a.passes.map(\.gain) == b.passes.map(\.gain)
            && a.passes.map(\.loudness) == b.passes.map(\.loudness)
    }
}
