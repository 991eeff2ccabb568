/// Whether 10 ms frames are speech, from what WebRTC's detector and `Voicing` say of each.
///
/// WebRTC's detector alone calls steady tones voice, and a periodicity alone finds a pitch in a
/// tone, a click train or a hum. Speech is voiced, periodic, and its pitch glides: a frame is a
/// *candidate* when it is loud enough (`Frame.loudEnough`), the detector calls it voiced, its periodicity is at least
/// `periodicityThreshold` and its period lies in `periodRange` (inside `Voicing`'s search, away
/// from its 400 Hz edge, where what a door's thump leaves after differencing settles). A
/// candidate is speech when the last `windowFrames` frames hold at least `minimumCandidates`
/// candidates and at least `minimumGlides` pairs of neighbouring candidates whose periods differ
/// by a glide (`glideRange`: more than a tone's jitter, less than a jump to another source),
/// the last of them within `recentGlideFrames`: a hum or a tone heard just after a word (WebRTC
/// keeps calling frames voiced for a while after speech) is not carried by the word's glides.
/// A steady tone, a click train at a fixed rate and hum keep one period; noise, a cough, a
/// thump and typing have none. Measured with `voicememo-bench speech FILE --frames`
/// (docs/VOICE-ACTIVATION.md). A pure value: no allocation after `init`.
public struct SpeechEvidence: Sendable {
    /// What one frame showed.
    public struct Frame: Sendable, Equatable {
        /// WebRTC's decision.
        public var voiced: Bool
        /// `Voicing`'s best normalised correlation, 0…1.
        public var periodicity: Float
        /// `Voicing`'s period at 8 kHz, in samples.
        public var period: Float
        /// Whether the frame is loud enough to be heard as speech (`SpeechDetector.quietestSpeechDB`).
        public var loudEnough: Bool

        public init(voiced: Bool, periodicity: Float, period: Float, loudEnough: Bool = true) {
            self.voiced = voiced
            self.periodicity = periodicity
            self.period = period
            self.loudEnough = loudEnough
        }
    }

    /// The periodicity a candidate needs (stationary noise stays under 0.3 after `Voicing`'s
    /// differencing; espeak-ng's vowels reach 0.3–0.95).
    public static let periodicityThreshold: Float = 0.3
    /// Frames the decision looks back over (300 ms).
    public static let windowFrames = 30
    /// The periods a candidate may have, in samples at 8 kHz: 80 to about 330 Hz, the voices of
    /// adults (a child's voice above 330 Hz is not heard as speech).
    public static let periodRange: ClosedRange<Float> = 24.5...Float(Voicing.maximumLag) - 0.5
    /// Candidates the window needs (50 ms of them).
    public static let minimumCandidates = 5
    /// Gliding neighbours the window needs.
    public static let minimumGlides = 2
    /// The ratio of neighbouring periods that counts as a glide: a tone's periods agree to
    /// better than 0.3 %; 12 % and more is a different source or an octave error.
    public static let glideRange: ClosedRange<Float> = 1.003...1.12
    /// How recent the last glide must be, in frames (100 ms).
    public static let recentGlideFrames = 10

    /// The period of each of the last frames, 0 for a frame that was not voiced and periodic.
    private var periods: [Float]
    private var seen = 0

    public init() {
        periods = Array(repeating: 0, count: Self.windowFrames)
    }

    /// Adds one frame and says whether it is speech.
    public mutating func add(_ frame: Frame) -> Bool {
        let candidate = frame.loudEnough && frame.voiced && frame.periodicity >= Self.periodicityThreshold && Self.periodRange.contains(frame.period)
        periods[seen % Self.windowFrames] = candidate ? frame.period : 0
        seen += 1
        guard candidate else { return false }
        var candidates = 0
        var glides = 0
        var framesSinceGlide = Int.max
        var previous: Float = 0
        for back in stride(from: min(seen, Self.windowFrames) - 1, through: 0, by: -1) {
            let period = periods[(seen - 1 - back) % Self.windowFrames]
            if period > 0 {
                candidates += 1
                if previous > 0, Self.glideRange.contains(max(period, previous) / min(period, previous)) {
                    glides += 1
                    framesSinceGlide = back
                }
            }
            previous = period
        }
        return candidates >= Self.minimumCandidates && glides >= Self.minimumGlides
            && framesSinceGlide < Self.recentGlideFrames
    }
}
