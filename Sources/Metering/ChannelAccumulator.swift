/// What the level meter gathers for one channel between two snapshots.
///
/// Levels are kept in normalised units (1.0 = full scale). The full-scale run survives
/// snapshots, because a clip that straddles two of them is still one clip.
struct ChannelAccumulator {
    /// Square of the largest sample magnitude seen; squared because the vector loop finds the
    /// largest square, and that keeps square roots out of metering altogether.
    var peakSquare: Double = 0
    /// Sum of squared normalised samples, in `Double` so millions of them lose no precision.
    var sumOfSquares: Double = 0
    /// Samples seen.
    var sampleCount: Int = 0
    /// Length of the run of consecutive full-scale samples that ends with the latest sample.
    var fullScaleRun: Int = 0
    /// The longest full-scale run seen since the last snapshot.
    var longestFullScaleRun: Int = 0
    /// Clips (`ClipRule`) completed since the last snapshot.
    var clips: Int = 0

    /// Adds one sample, given its raw magnitude, the type's scale and its clip threshold.
    @inline(__always)
    mutating func add(rawMagnitude: Float, inverseFullScale: Float, clipThreshold: Float) {
        let magnitude = rawMagnitude * inverseFullScale
        let wide = Double(magnitude)
        let square = wide * wide
        sumOfSquares += square
        if square > peakSquare { peakSquare = square }
        if ClipRule.advance(&fullScaleRun, isFullScale: rawMagnitude >= clipThreshold) { clips += 1 }
        if fullScaleRun > longestFullScaleRun { longestFullScaleRun = fullScaleRun }
    }

    /// Starts a new measurement interval, keeping the current full-scale run.
    mutating func startInterval() {
        peakSquare = 0
        sumOfSquares = 0
        sampleCount = 0
        longestFullScaleRun = 0
        clips = 0
    }
}
