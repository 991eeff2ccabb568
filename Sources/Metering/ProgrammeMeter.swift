/// The meters a whole programme goes through for the figures stored with a memo: sample peak,
/// true peak and full-scale samples (`TruePeakMeter`), integrated loudness and loudness range
/// (`LoudnessMeter`), and the peak envelope a waveform is drawn from (`PeakEnvelope`).
///
/// One type for both places that measure a memo: `voicememo analyze` and the library decode a
/// file through it, and a recorder feeds it the frames it writes, so a memo's figures follow
/// the same rules however they were taken. Sample rules are those of the two meters (a sample
/// counts as full scale from 32767, 0x7FFFFF00 or 1.0).
public struct ProgrammeMeter: Sendable {
    /// True peak, sample peak and full-scale samples of everything consumed.
    public private(set) var truePeak: TruePeakMeter
    /// Loudness of everything consumed; `nil` when the rate is outside
    /// `LoudnessMeter.supportedSampleRates`.
    public private(set) var loudness: LoudnessMeter?
    /// The peak envelope of everything consumed (20 blocks a second).
    public private(set) var envelope: PeakEnvelope
    /// Whole frames consumed.
    public private(set) var frames = 0

    /// Meters for `channels` interleaved channels (1…32) at `sampleRate` Hz (positive). Loudness
    /// is measured only at the rates `LoudnessMeter` supports.
    public init(channels: Int, sampleRate: Int) {
        truePeak = TruePeakMeter(channels: channels, sampleRate: sampleRate)
        envelope = PeakEnvelope(channels: channels, sampleRate: sampleRate)
        if LoudnessMeter.supportedSampleRates.contains(sampleRate) {
            loudness = LoudnessMeter(channels: channels, sampleRate: sampleRate)
        }
    }

    /// Measures interleaved 16-bit samples (whole frames).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int16>) {
        truePeak.consume(samples)
        loudness?.consume(samples)
        envelope.consume(samples)
        frames += samples.count / truePeak.channelCount
    }

    /// Measures interleaved 32-bit samples, 24-bit audio left-justified (whole frames).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int32>) {
        truePeak.consume(samples)
        loudness?.consume(samples)
        envelope.consume(samples)
        frames += samples.count / truePeak.channelCount
    }

    /// Measures interleaved floating-point samples, full scale 1.0 (whole frames).
    public mutating func consume(_ samples: UnsafeBufferPointer<Float>) {
        truePeak.consume(samples)
        loudness?.consume(samples)
        envelope.consume(samples)
        frames += samples.count / truePeak.channelCount
    }

    /// The figures of everything consumed so far. Computing the gated loudness and the range
    /// goes over every 100 ms of the programme once: read it at the end, not per buffer.
    public var statistics: ProgrammeStatistics {
        ProgrammeStatistics(
            frames: Int64(frames),
            samplePeakDB: Double(truePeak.samplePeakLevel),
            truePeakDBTP: Self.finite(Double(truePeak.truePeakLevel)),
            loudnessLUFS: Self.finite(loudness?.integratedLoudness),
            loudnessRange: Self.finite(loudness?.loudnessRange),
            clipCount: Int64(truePeak.clipCount), envelope: envelope.finished)
    }

    private static func finite(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return value
    }
}

/// What `ProgrammeMeter` found in a whole programme: the figures a memo keeps (the library's
/// `peak_db`, `true_peak_dbtp`, `loudness_lufs`, `lra` and `clips`).
public struct ProgrammeStatistics: Sendable, Equatable {
    /// Frames measured.
    public var frames: Int64
    /// The highest sample magnitude of any channel, in dBFS (`Decibels.floor` for silence).
    public var samplePeakDB: Double
    /// The highest true peak of any channel, in dBTP (`Decibels.floor` for silence).
    public var truePeakDBTP: Double?
    /// Integrated loudness in LUFS; `nil` below the −70 LUFS gate or at an unsupported rate.
    public var loudnessLUFS: Double?
    /// Loudness range in LU; `nil` when the programme is too short or too quiet for it.
    public var loudnessRange: Double?
    /// Clips (`ClipRule`: runs of three full-scale samples), over all channels.
    public var clipCount: Int64
    /// The peak envelope, last block closed; `nil` in figures read back from the index (the
    /// library stores it apart, `MemoLibrary.storedEnvelope(ofMemo:)`).
    public var envelope: PeakEnvelope?

    /// Figures as given (e.g. read back from the index).
    public init(
        frames: Int64, samplePeakDB: Double, truePeakDBTP: Double?, loudnessLUFS: Double?, loudnessRange: Double?,
        clipCount: Int64, envelope: PeakEnvelope? = nil
    ) {
        self.frames = frames
        self.samplePeakDB = samplePeakDB
        self.truePeakDBTP = truePeakDBTP
        self.loudnessLUFS = loudnessLUFS
        self.loudnessRange = loudnessRange
        self.clipCount = clipCount
        self.envelope = envelope
    }
}
