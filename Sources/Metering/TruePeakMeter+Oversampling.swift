/// The consuming loops behind `TruePeakMeter.consume(_:)`.
///
/// Samples are sorted into per-channel inputs (sample peak and full-scale count on the way),
/// whole frames one channel at a time; whenever the channels have `chunkLength` new samples the
/// interpolator runs over each, and the last `tapsPerPhase − 1` samples stay behind as history.
/// Nothing is allocated while consuming.
///
/// A chunk that cannot raise the reading is not interpolated at all (`canRaiseReading`): the
/// meter reports max(true peak, sample peak), and every oversampled point of a chunk is bounded
/// by the chunk's own samples through the filter's coefficients, so when that bound stays at or
/// below what the meter already holds, interpolating it would change no figure. Speech, with
/// its pauses and quieter syllables, skips most chunks; a steady tone or full-band noise skips
/// few, and then only the cheaper filter below is what is saved.
extension TruePeakMeter {
    mutating func accumulate<Sample: LoudnessSample>(_ samples: UnsafeBufferPointer<Sample>) {
        guard let base = samples.baseAddress else { return }
        let count = samples.count
        var index = 0
        while index < count && nextChannel != 0 {
            consumeOne(base[index])
            index += 1
        }
        // Here every channel holds the same number of pending samples.
        while count - index >= channelCount {
            let pending = pendingCounts[0]
            let frames = min((count - index) / channelCount, Self.chunkLength - pending)
            gatherFrames(base + index, frames: frames, pending: pending)
            index += frames * channelCount
            if pending + frames == Self.chunkLength {
                for channel in 0..<channelCount { oversample(channel: channel, count: Self.chunkLength) }
            }
        }
        while index < count {
            consumeOne(base[index])
            index += 1
        }
    }

    /// Copies `frames` whole frames from `base` (a frame's first channel) into the channels'
    /// inputs after their `pending` samples, with the sample peak and the clips.
    private mutating func gatherFrames<Sample: LoudnessSample>(_ base: UnsafePointer<Sample>, frames: Int, pending: Int) {
        let channels = channelCount
        let offset = Self.historyLength + pending
        let stride = Self.channelStride
        var clips = 0
        channelInputs.withUnsafeMutableBufferPointer { inputs in
            guard let inputBase = inputs.baseAddress else { return }
            for channel in 0..<channels {
                var source = base + channel
                let destination = inputBase + channel * stride + offset
                var peak = samplePeaks[channel]
                var run = fullScaleRuns[channel]
                for frame in 0..<frames {
                    let sample = source.pointee
                    let value = Sample.normalizedValue(sample)
                    if ClipRule.advance(&run, isFullScale: Sample.isFullScale(sample)) { clips += 1 }
                    peak = max(peak, value.magnitude)
                    destination[frame] = value
                    source += channels
                }
                samplePeaks[channel] = peak
                fullScaleRuns[channel] = run
                pendingCounts[channel] = pending + frames
            }
        }
        clipCount += clips
    }

    /// Takes one sample of the channel `nextChannel` (frames split across buffers).
    private mutating func consumeOne<Sample: LoudnessSample>(_ sample: Sample) {
        let channel = nextChannel
        let value = Sample.normalizedValue(sample)
        if ClipRule.advance(&fullScaleRuns[channel], isFullScale: Sample.isFullScale(sample)) { clipCount += 1 }
        samplePeaks[channel] = max(samplePeaks[channel], value.magnitude)
        let pending = pendingCounts[channel]
        channelInputs[channel * Self.channelStride + Self.historyLength + pending] = value
        if pending + 1 == Self.chunkLength {
            oversample(channel: channel, count: Self.chunkLength)
        } else {
            pendingCounts[channel] = pending + 1
        }
        nextChannel = channel + 1 == channelCount ? 0 : channel + 1
    }

    /// Runs the interpolator over `count` new samples of `channel` — unless they cannot raise
    /// the reading — and keeps the tail as history.
    private mutating func oversample(channel: Int, count: Int) {
        let start = channel * Self.channelStride
        let history = Self.historyLength
        let held = max(truePeaks[channel], samplePeaks[channel])
        var skipped = false
        let peak = channelInputs.withUnsafeMutableBufferPointer { inputs -> Float in
            guard let input = inputs.baseAddress.map({ $0 + start }) else { return 0 }
            var peak: Float = 0
            if interpolator.canRaise(held, input, outputs: count) {
                peak = interpolator.largestMagnitude(input, outputs: count)
            } else {
                skipped = true
            }
            // The newest samples become the next chunk's history.
            for index in 0..<history {
                input[index] = input[count + index]
            }
            return peak
        }
        truePeaks[channel] = max(truePeaks[channel], peak)
        if skipped { skippedChunkCount += 1 }
        pendingCounts[channel] = 0
    }

    /// The true peak of `channel` including the samples still waiting for a full chunk.
    func truePeakIncludingPending(channel: Int) -> Float {
        let pending = pendingCounts[channel]
        guard pending > 0 else { return truePeaks[channel] }
        let start = channel * Self.channelStride
        let peak = channelInputs.withUnsafeBufferPointer { inputs -> Float in
            guard let input = inputs.baseAddress.map({ $0 + start }) else { return 0 }
            return interpolator.largestMagnitude(input, outputs: pending)
        }
        return max(truePeaks[channel], peak)
    }
}

extension TruePeakInterpolator {
    /// Whether any oversampled value of `outputs` input instants can exceed `held`.
    ///
    /// `input` holds `tapsPerPhase − 1` samples of history followed by `outputs` new samples,
    /// all within [low, high]. Each value is Σ c·x = m·Σc + Σ c·(x − m) with m the middle of
    /// that range, so it is at most |m|·`directGain` + `absoluteGain`·(high − low)/2 (a DC
    /// offset does not inflate the bound), plus a margin far above the rounding of 16 Float
    /// products and sums.
    func canRaise(_ held: Float, _ input: UnsafePointer<Float>, outputs: Int) -> Bool {
        guard factor > 1, outputs > 0 else { return false }
        let count = outputs + Self.tapsPerPhase - 1
        var low = SIMD8<Float>(repeating: input[0])
        var high = low
        var index = 0
        let raw = UnsafeRawPointer(input)
        while index + 8 <= count {
            let values = raw.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
            low = low.replacing(with: values, where: values .< low)
            high = high.replacing(with: values, where: values .> high)
            index += 8
        }
        var smallest = low.min()
        var largest = high.max()
        while index < count {
            smallest = min(smallest, input[index])
            largest = max(largest, input[index])
            index += 1
        }
        let middle = (Double(largest) + Double(smallest)) / 2
        let halfRange = (Double(largest) - Double(smallest)) / 2
        let bound = middle.magnitude * directGain + absoluteGain * halfRange
        let margin = 1e-5 * absoluteGain * (middle.magnitude + halfRange)
        return bound + margin > Double(held)
    }

    /// The largest magnitude of the computed phases for `outputs` input instants.
    ///
    /// `input` holds `tapsPerPhase − 1` samples of history followed by `outputs` new samples.
    func largestMagnitude(_ input: UnsafePointer<Float>, outputs: Int) -> Float {
        switch factor {
        case 4: largestMagnitude(input, outputs: outputs, phases: 3)
        case 2: largestMagnitude(input, outputs: outputs, phases: 1)
        default: 0
        }
    }

    @inline(__always)
    private func largestMagnitude(_ input: UnsafePointer<Float>, outputs: Int, phases: Int) -> Float {
        taps.withUnsafeBufferPointer { taps -> Float in
            guard let tap = taps.baseAddress else { return 0 }
            var peak = SIMD8<Float>()
            var output = 0
            while output + 8 <= outputs {
                let window = UnsafeRawPointer(input + output)
                if phases == 3 {
                    peak = Self.largest(peak, Self.threePhases(window, tap))
                } else {
                    peak = Self.largest(peak, Self.onePhase(window, tap))
                }
                output += 8
            }
            var largest = peak.max()
            // The last outputs one at a time, in the same order of operations.
            while output < outputs {
                let window = input + output
                for phase in 0..<phases {
                    var even: Float = 0
                    var odd: Float = 0
                    var index = 0
                    while index < Self.tapsPerPhase {
                        even = even + tap[index * phases + phase][0] * window[index]
                        odd = odd + tap[(index + 1) * phases + phase][0] * window[index + 1]
                        index += 2
                    }
                    largest = max(largest, (even + odd).magnitude)
                }
                output += 1
            }
            return largest
        }
    }

    /// Eight instants of phases 1, 2 and 3 (×4); the largest magnitude per lane.
    ///
    /// Each accumulator starts from its first product rather than from 0 + that product: the
    /// two differ only where the product is −0 (0 + −0 is +0), and a zero's sign cannot change
    /// any later sum's magnitude, so every |value| is the same to the bit.
    @inline(__always)
    private static func threePhases(_ window: UnsafeRawPointer, _ tap: UnsafePointer<SIMD8<Float>>) -> SIMD8<Float> {
        let first0 = window.loadUnaligned(fromByteOffset: 0, as: SIMD8<Float>.self)
        let first1 = window.loadUnaligned(fromByteOffset: 4, as: SIMD8<Float>.self)
        var even1 = tap[0] * first0, even2 = tap[1] * first0, even3 = tap[2] * first0
        var odd1 = tap[3] * first1, odd2 = tap[4] * first1, odd3 = tap[5] * first1
        var index = 2
        while index < tapsPerPhase {
            let x0 = window.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
            let x1 = window.loadUnaligned(fromByteOffset: index * 4 + 4, as: SIMD8<Float>.self)
            let t = tap + index * 3
            even1 = even1 + t[0] * x0
            even2 = even2 + t[1] * x0
            even3 = even3 + t[2] * x0
            odd1 = odd1 + t[3] * x1
            odd2 = odd2 + t[4] * x1
            odd3 = odd3 + t[5] * x1
            index += 2
        }
        return largest(largest(magnitude(even1 + odd1), magnitude(even2 + odd2)), magnitude(even3 + odd3))
    }

    /// Eight instants of the half-way phase (×2); their magnitudes. The accumulators start
    /// from their first products, as in `threePhases`.
    @inline(__always)
    private static func onePhase(_ window: UnsafeRawPointer, _ tap: UnsafePointer<SIMD8<Float>>) -> SIMD8<Float> {
        var even = tap[0] * window.loadUnaligned(fromByteOffset: 0, as: SIMD8<Float>.self)
        var odd = tap[1] * window.loadUnaligned(fromByteOffset: 4, as: SIMD8<Float>.self)
        var index = 2
        while index < tapsPerPhase {
            let x0 = window.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
            let x1 = window.loadUnaligned(fromByteOffset: index * 4 + 4, as: SIMD8<Float>.self)
            even = even + tap[index] * x0
            odd = odd + tap[index + 1] * x1
            index += 2
        }
        return magnitude(even + odd)
    }

    /// |value| by clearing the sign bits (one AND; the select it replaces took five
    /// instructions). Values are never NaN here; −0 becomes +0, which no maximum can tell apart.
    @inline(__always)
    private static func magnitude(_ value: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(value, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    }

    @inline(__always)
    private static func largest(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: b .> a)
    }
}
