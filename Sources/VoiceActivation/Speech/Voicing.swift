/// How periodic the last ~45 ms of audio are, and at what pitch: a normalised
/// autocorrelation over 8 kHz samples, searched from 80 to 400 Hz.
///
/// The samples are differenced first (x[n] − x[n−1]), which turns brown noise (−6 dB per
/// octave) into white and high-passes hum, so a room's low rumble does not read as a pitch.
/// A pure value: storage is allocated once in `init`.
public struct Voicing: Sendable {
    /// The rate the analysis runs at.
    public static let sampleRate = 8000
    /// The shortest period searched (400 Hz).
    public static let minimumLag = 20
    /// The longest period searched (80 Hz): a door's thump and mains hum lie below it.
    public static let maximumLag = 100
    /// Samples each correlation sums over (30 ms).
    public static let window = 240

    /// The last `window + maximumLag` differenced samples, oldest first once full.
    private var history: [Float]
    /// Each lag's correlation in the last `measure()`, kept to avoid an allocation per call.
    private var scores: [Float]
    private var written = 0
    private var previous: Float = 0
    /// The mean power of the differenced samples `measure()` last correlated (its `window`):
    /// the level of the band a pitch is heard in, without the room's rumble.
    public private(set) var windowPower: Float = 0

    public init() {
        history = Array(repeating: 0, count: Self.window + Self.maximumLag)
        scores = Array(repeating: 0, count: Self.maximumLag + 2)
    }

    /// Adds one sample at 8 kHz.
    public mutating func add(_ sample: Float) {
        history[written % history.count] = sample - previous
        previous = sample
        written += 1
    }

    /// The best normalised correlation (0…1) and its period in samples at 8 kHz
    /// (fractional, by a parabola through the peak); 0 and 0 until enough has been heard.
    public mutating func measure() -> (periodicity: Float, period: Float) {
        let count = history.count
        guard written >= count else { return (0, 0) }
        let start = written % count
        func sample(_ index: Int) -> Float { history[(start + index) % count] }
        let base = Self.maximumLag
        var energy: Float = 0
        for index in 0..<Self.window { energy += sample(base + index) * sample(base + index) }
        windowPower = energy / Float(Self.window)
        guard energy > 1e-12 else { return (0, 0) }
        var best: Float = 0
        var bestLag = 0
        for lag in (Self.minimumLag - 1)...(Self.maximumLag) {
            var product: Float = 0
            var lagged: Float = 0
            for index in 0..<Self.window {
                let earlier = sample(base + index - lag)
                product += sample(base + index) * earlier
                lagged += earlier * earlier
            }
            let score = lagged > 1e-12 ? product / (energy * lagged).squareRoot() : 0
            scores[lag] = score
            if lag >= Self.minimumLag, score > best {
                best = score
                bestLag = lag
            }
        }
        guard bestLag > 0 else { return (0, 0) }
        // The shortest period nearly as good as the best: a tone correlates as well at every
        // multiple of its period, and picking among them by rounding would move its "pitch".
        for lag in Self.minimumLag..<bestLag
        where scores[lag] >= 0.9 * best && scores[lag] >= scores[lag - 1] && scores[lag] >= scores[lag + 1] {
            bestLag = lag
            break
        }
        let peak = scores[bestLag]
        var period = Float(bestLag)
        if bestLag < Self.maximumLag {
            let left = scores[bestLag - 1]
            let right = scores[bestLag + 1]
            let curvature = left - 2 * peak + right
            if curvature < 0 { period += 0.5 * (left - right) / curvature }
        }
        return (best, period)
    }
}
