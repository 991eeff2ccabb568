import Glibc
/// A quasi-peak programme meter (PPM) after IEC 60268-10, type I or type II, for interleaved
/// audio of any channel count: what each channel's needle would show.
///
/// Figures used (the standards themselves are not freely available; these are the values
/// their summaries agree on):
/// - **Type I** (the German/Nordic PPM; DIN 45406): integration time 5 ms, i.e. a 5 ms tone
///   burst reads 2 dB below the steady reading, and a 10 ms burst 1 dB below; return 20 dB in
///   1.7 s (IEC 60268-10 allows ±0.3 s, which covers DIN 45406's 1.5 s). Sources: Weinzierl,
///   *Handbuch der Audiotechnik* (as tabulated at 13db.de, "Peak-Meter analog": 5 ms,
///   1.7 s for 0 → −20); Wohler AMP1 user guide table 1–2 ("IEC268-10 Type 1: 5 ms (−2 dB),
///   1.7 s (20 dB)"; "DIN 45406: 5 ms (−2 dB), 1.5 s (20 dB)").
/// - **Type II** (BBC / EBU): integration time 10 ms (a 10 ms burst reads −2 dB, a 5 ms
///   burst −4 dB); return 24 dB in 2.8 s (BBC marks 7 → 1, EBU +12 → −12). Sources: the same
///   two tables ("Type 2: 10 ms (−2 dB), 2.8 s (24 dB)").
///
/// How: each sample is rectified and charges two peak detectors with different attack time
/// constants (a capacitor charged through a resistor only while the input is above it); the
/// indication is their weighted sum, which gives the burst response its standard shape (one
/// detector alone cannot read −2 dB at 5 ms and −1 dB at 10 ms). Both discharge at the
/// standard's constant return rate in dB. The constants were fitted by simulation to the
/// burst figures above (5 kHz bursts at 48 kHz) and hold within 0.1 dB from 100 Hz to
/// 10 kHz and at other rates; a steady sine reads its peak level in dBFS (a −12 dBFS sine
/// reads −12). The tests check all of this with synthesised bursts.
///
/// Cost: per sample one absolute value, two multiplies for the return, two compares and at
/// most two multiply-adds; the reading is the highest indication since the last `read()`,
/// so a display polling at 30 Hz misses no peak.
public struct PeakProgrammeMeter: Sendable {
    /// Which PPM of IEC 60268-10.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// Type I: 5 ms integration, 20 dB return in 1.7 s.
        case typeI
        /// Type II (BBC/EBU): 10 ms integration, 24 dB return in 2.8 s.
        case typeII
    }

    /// The timing of one PPM kind.
    public struct Ballistics: Sendable, Equatable {
        /// The share of the fast detector in the indication (the slow one has the rest).
        public var fastWeight: Float
        /// Attack time constant of the fast detector, seconds.
        public var fastTime: Double
        /// Attack time constant of the slow detector, seconds.
        public var slowTime: Double
        /// The return: `returnDecibels` dB in `returnTime` seconds, at a constant rate in dB.
        public var returnDecibels: Double
        public var returnTime: Double
        /// Makes a steady sine read its peak (the two detectors settle just under it).
        public var gain: Float
    }

    /// The fitted constants of `kind` (see the type's documentation for the figures).
    public static func ballistics(_ kind: Kind) -> Ballistics {
        switch kind {
        case .typeI:
            Ballistics(fastWeight: 0.865, fastTime: 0.000915, slowTime: 0.01046, returnDecibels: 20, returnTime: 1.7, gain: 1.0243)
        case .typeII:
            Ballistics(fastWeight: 0.546, fastTime: 0.00140, slowTime: 0.00490, returnDecibels: 24, returnTime: 2.8, gain: 1.0275)
        }
    }

    public let kind: Kind
    /// The number of interleaved channels.
    public let channelCount: Int
    /// Frames per second.
    public let sampleRate: Int

    private let fastWeight: Float
    private let slowWeight: Float
    private let fastCoefficient: Float
    private let slowCoefficient: Float
    /// What each detector keeps per sample while it discharges.
    private let returnFactor: Float
    private let gain: Float
    private var fast: [Float]
    private var slow: [Float]
    private var highest: [Float]
    /// The channel the next consumed sample belongs to.
    private var nextChannel = 0

    /// A meter of `kind` for `channels` interleaved channels (≥ 1) at `sampleRate` Hz (> 0).
    /// Anything else stops the program: callers pass a device's or a file's checked format.
    public init(kind: Kind, channels: Int, sampleRate: Int) {
        precondition(channels >= 1 && sampleRate > 0, "PeakProgrammeMeter needs ≥ 1 channel and a positive rate")
        let ballistics = Self.ballistics(kind)
        self.kind = kind
        channelCount = channels
        self.sampleRate = sampleRate
        let rate = Double(sampleRate)
        fastWeight = ballistics.fastWeight
        slowWeight = 1 - ballistics.fastWeight
        fastCoefficient = Float(1 - exp(-1 / (ballistics.fastTime * rate)))
        slowCoefficient = Float(1 - exp(-1 / (ballistics.slowTime * rate)))
        returnFactor = Float(Decibels.toAmplitude(-ballistics.returnDecibels / (ballistics.returnTime * rate)))
        gain = ballistics.gain
        fast = Array(repeating: 0, count: channels)
        slow = Array(repeating: 0, count: channels)
        highest = Array(repeating: 0, count: channels)
    }

    /// Measures interleaved 16-bit samples (full scale 32768).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int16>) { accumulate(samples) }

    /// Measures interleaved 32-bit samples, 24-bit audio left-justified (full scale 2³¹).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int32>) { accumulate(samples) }

    /// Measures interleaved floating-point samples (full scale 1.0; NaN reads 0, beyond ±1 reads ±1).
    public mutating func consume(_ samples: UnsafeBufferPointer<Float>) { accumulate(samples) }

    /// The highest indication of each channel since the previous call, in dBFS (−160 for
    /// silence); the next call starts afresh from the current indication.
    public mutating func read() -> [Float] {
        (0..<channelCount).map { channel in
            let value = highest[channel]
            highest[channel] = indicationAmplitude(channel)
            return Decibels.fromAmplitude(Double(value))
        }
    }

    /// The indication of `channel` now, in dBFS.
    public func indication(channel: Int) -> Float {
        Decibels.fromAmplitude(Double(indicationAmplitude(channel)))
    }

    /// Forgets everything: the needles drop to the floor.
    public mutating func reset() {
        for channel in 0..<channelCount {
            fast[channel] = 0
            slow[channel] = 0
            highest[channel] = 0
        }
        nextChannel = 0
    }

    private func indicationAmplitude(_ channel: Int) -> Float {
        gain * (fastWeight * fast[channel] + slowWeight * slow[channel])
    }

    private mutating func accumulate<Sample: LoudnessSample>(_ samples: UnsafeBufferPointer<Sample>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let count = samples.count
        let stride = channelCount
        for offset in 0..<stride {
            // The channel of sample `offset` in this buffer, given where the last one stopped.
            let channel = (nextChannel + offset) % stride
            var fastLevel = fast[channel]
            var slowLevel = slow[channel]
            var top = highest[channel]
            var index = offset
            while index < count {
                let input = abs(Sample.normalizedValue(base[index]))
                fastLevel *= returnFactor
                slowLevel *= returnFactor
                if input > fastLevel { fastLevel += fastCoefficient * (input - fastLevel) }
                if input > slowLevel { slowLevel += slowCoefficient * (input - slowLevel) }
                let indication = gain * (fastWeight * fastLevel + slowWeight * slowLevel)
                if indication > top { top = indication }
                index += stride
            }
            // Below −400 dBFS is silence; zero keeps the detectors out of slow subnormals.
            fast[channel] = fastLevel < 1e-20 ? 0 : fastLevel
            slow[channel] = slowLevel < 1e-20 ? 0 : slowLevel
            highest[channel] = top
        }
        nextChannel = (nextChannel + count) % stride
    }
}
