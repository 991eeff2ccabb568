/// The measuring loops behind `LevelMeter.consume(_:)`.
///
/// A block is a stretch of about 2,000 samples whose vector part is a whole number of
/// lane periods, so every SIMD lane of a given accumulator always holds the same channel.
/// The vector loop keeps only sums of squares and maxima of squares; everything with a rule
/// attached (clip runs, NaN, over-range) lives in the scalar path, which runs for block tails,
/// short buffers, and blocks the vector loop flags as containing an unusual sample.
extension LevelMeter {
    /// Samples per vector.
    private static var laneCount: Int { 8 }
    /// Target vectors per block: enough to amortise the fold, few enough that a lane sums at most
    /// 256 squares in `Float` before the total moves to `Double`.
    private static var targetVectorsPerBlock: Int { 256 }

    mutating func accumulate<Sample: MeterSample>(_ samples: UnsafeBufferPointer<Sample>) {
        guard let base = samples.baseAddress, samples.count > 0 else { return }
        let firstChannel = nextChannel
        let period = lanePeriod
        let vectorsPerBlock = period * max(1, Self.targetVectorsPerBlock / period)
        let samplesPerBlock = vectorsPerBlock * Self.laneCount
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 2 * period) { scratch in
            guard let sums = scratch.baseAddress else { return }
            let maxima = sums + period
            var offset = 0
            var channel = firstChannel
            while offset < samples.count {
                let length = min(samplesPerBlock, samples.count - offset)
                accumulateBlock(
                    base + offset, count: length, firstChannel: channel, sums: sums, maxima: maxima)
                channel = (channel + length) % channelCount
                offset += length
            }
            nextChannel = channel
        }
        countSamples(samples.count, firstChannel: firstChannel)
    }

    /// Adds `count` samples to the per-channel counts, starting at `firstChannel`.
    private mutating func countSamples(_ count: Int, firstChannel: Int) {
        let wholeFrames = count / channelCount
        let leftover = count % channelCount
        for channel in 0..<channelCount {
            let distance = (channel - firstChannel + channelCount) % channelCount
            accumulators[channel].sampleCount += wholeFrames + (distance < leftover ? 1 : 0)
        }
    }

    private mutating func accumulateBlock<Sample: MeterSample>(
        _ base: UnsafePointer<Sample>, count: Int, firstChannel: Int,
        sums: UnsafeMutablePointer<SIMD8<Float>>, maxima: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        let period = lanePeriod
        let vectorCount = count / (Self.laneCount * period) * period
        let vectorSampleCount = vectorCount * Self.laneCount
        // The vector part must reach every channel, or resetting all clip runs below is wrong.
        guard vectorSampleCount >= channelCount else {
            accumulateOneByOne(base, count: count, firstChannel: firstChannel)
            return
        }
        if period == 1 {
            Self.sumSquaresInRegisters(base, vectorCount: vectorCount, sums: sums, maxima: maxima)
        } else {
            Self.sumSquaresByLanePattern(
                base, vectorCount: vectorCount, period: period, sums: sums, maxima: maxima)
        }
        guard Self.isOrdinary(sums: sums, maxima: maxima, period: period, sample: Sample.self) else {
            accumulateOneByOne(base, count: count, firstChannel: firstChannel)
            return
        }
        fold(sums: sums, maxima: maxima, firstChannel: firstChannel, sample: Sample.self)
        if vectorSampleCount < count {
            accumulateOneByOne(
                base + vectorSampleCount, count: count - vectorSampleCount,
                firstChannel: (firstChannel + vectorSampleCount) % channelCount)
        }
    }

    /// Whether a block's lanes are free of NaN, infinity and (near) full-scale samples.
    ///
    /// A NaN or infinite sample makes its lane's sum NaN or infinite; an over-range or
    /// full-scale sample shows in the maximum. The threshold sits a little below the clip
    /// threshold so rounding of the squares cannot hide a full-scale sample.
    private static func isOrdinary<Sample: MeterSample>(
        sums: UnsafeMutablePointer<SIMD8<Float>>, maxima: UnsafeMutablePointer<SIMD8<Float>>,
        period: Int, sample: Sample.Type
    ) -> Bool {
        let limit = Sample.clipThreshold * Sample.clipThreshold * 0.999
        let finiteLimit = SIMD8<Float>(repeating: .greatestFiniteMagnitude)
        let squareLimit = SIMD8<Float>(repeating: limit)
        for index in 0..<period {
            let sum = sums[index]
            // `sum .<= greatestFiniteMagnitude` is false for NaN and +infinity.
            if any(.!(sum .<= finiteLimit)) || any(maxima[index] .>= squareLimit) {
                return false
            }
        }
        return true
    }

    /// Moves a block's lane sums and maxima into their channels, scaled to full scale 1.0.
    private mutating func fold<Sample: MeterSample>(
        sums: UnsafeMutablePointer<SIMD8<Float>>, maxima: UnsafeMutablePointer<SIMD8<Float>>,
        firstChannel: Int, sample: Sample.Type
    ) {
        let inverseFullScale = 1 / Sample.fullScale
        let inverseFullScaleSquared = Double(inverseFullScale) * Double(inverseFullScale)
        var channel = firstChannel
        for index in 0..<lanePeriod {
            let sum = sums[index]
            let maximum = maxima[index]
            for lane in 0..<Self.laneCount {
                accumulators[channel].sumOfSquares += Double(sum[lane]) * inverseFullScaleSquared
                let peakSquare = Double(maximum[lane]) * inverseFullScaleSquared
                if peakSquare > accumulators[channel].peakSquare {
                    accumulators[channel].peakSquare = peakSquare
                }
                channel += 1
                if channel == channelCount { channel = 0 }
            }
        }
        for index in 0..<channelCount {
            accumulators[index].fullScaleRun = 0
        }
    }

    /// The reference path: one sample at a time, with every rule applied.
    private mutating func accumulateOneByOne<Sample: MeterSample>(
        _ base: UnsafePointer<Sample>, count: Int, firstChannel: Int
    ) {
        let inverseFullScale = 1 / Sample.fullScale
        let clipThreshold = Sample.clipThreshold
        let channels = channelCount
        var channel = firstChannel
        accumulators.withUnsafeMutableBufferPointer { accumulators in
            for index in 0..<count {
                accumulators[channel].add(
                    rawMagnitude: Sample.sanitizedMagnitude(base[index]),
                    inverseFullScale: inverseFullScale, clipThreshold: clipThreshold)
                channel += 1
                if channel == channels { channel = 0 }
            }
        }
    }

    /// The hot loop for 1, 2, 4 and 8 channels: every vector has the same lane-to-channel layout,
    /// so four independent register accumulators hide the latency of the additions.
    ///
    /// Squares are added with a plain `s + q` rather than a fused multiply-add: the baseline
    /// x86-64 target has no FMA, and the emulated one is many times slower.
    @inline(__always)
    private static func sumSquaresInRegisters<Sample: MeterSample>(
        _ base: UnsafePointer<Sample>, vectorCount: Int,
        sums: UnsafeMutablePointer<SIMD8<Float>>, maxima: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        var sum0 = SIMD8<Float>(), sum1 = SIMD8<Float>(), sum2 = SIMD8<Float>(), sum3 = SIMD8<Float>()
        var max0 = SIMD8<Float>(), max1 = SIMD8<Float>(), max2 = SIMD8<Float>(), max3 = SIMD8<Float>()
        var index = 0
        var pointer = base
        let unrolledCount = vectorCount & ~3
        while index < unrolledCount {
            let square0 = squared(Sample.loadVector(pointer))
            let square1 = squared(Sample.loadVector(pointer + 8))
            let square2 = squared(Sample.loadVector(pointer + 16))
            let square3 = squared(Sample.loadVector(pointer + 24))
            sum0 = sum0 + square0
            sum1 = sum1 + square1
            sum2 = sum2 + square2
            sum3 = sum3 + square3
            max0 = larger(max0, square0)
            max1 = larger(max1, square1)
            max2 = larger(max2, square2)
            max3 = larger(max3, square3)
            pointer += 32
            index += 4
        }
        while index < vectorCount {
            let square = squared(Sample.loadVector(pointer))
            sum0 = sum0 + square
            max0 = larger(max0, square)
            pointer += 8
            index += 1
        }
        sums[0] = (sum0 + sum1) + (sum2 + sum3)
        maxima[0] = larger(larger(max0, max1), larger(max2, max3))
    }

    /// The loop for channel counts that do not divide 8: accumulator `p` takes vectors
    /// `p, p + period, p + 2·period, …`, whose lanes line up with the same channels.
    @inline(__always)
    private static func sumSquaresByLanePattern<Sample: MeterSample>(
        _ base: UnsafePointer<Sample>, vectorCount: Int, period: Int,
        sums: UnsafeMutablePointer<SIMD8<Float>>, maxima: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        for index in 0..<period {
            sums[index] = SIMD8<Float>()
            maxima[index] = SIMD8<Float>()
        }
        var pointer = base
        var index = 0
        while index < vectorCount {
            for accumulator in 0..<period {
                let square = squared(Sample.loadVector(pointer))
                sums[accumulator] = sums[accumulator] + square
                maxima[accumulator] = larger(maxima[accumulator], square)
                pointer += 8
            }
            index += period
        }
    }

    @inline(__always)
    private static func squared(_ vector: SIMD8<Float>) -> SIMD8<Float> {
        vector * vector
    }

    /// Lane-wise maximum that keeps `current` where `candidate` is NaN (the sums catch NaN).
    @inline(__always)
    private static func larger(_ current: SIMD8<Float>, _ candidate: SIMD8<Float>) -> SIMD8<Float> {
        current.replacing(with: candidate, where: candidate .> current)
    }
}
