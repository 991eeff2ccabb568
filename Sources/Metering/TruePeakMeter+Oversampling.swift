/// The consuming loops behind `TruePeakMeter.consume(_:)`.
///
/// Samples are sorted into per-channel inputs (sample peak and full-scale count on the way),
/// whole frames one channel at a time; whenever the channels have `chunkLength` new samples the
/// interpolator runs over each, and the last `tapsPerPhase − 1` samples stay behind as history.
/// Nothing is allocated while consuming.
///
/// A chunk that cannot raise the reading is not interpolated at all (`phasesThatCanRaise`): the
/// meter reports max(true peak, sample peak), and every oversampled point of a chunk is bounded
/// by the chunk's own samples through the filter's coefficients, so when that bound stays at or
/// below what the meter already holds, interpolating it would change no figure. Speech, with
/// its pauses and quieter syllables, skips most chunks. The bound is taken per phase group, so
/// full-band noise often needs the half-way phase alone; and inside a chunk that must be
/// interpolated, blocks of eight instants whose own bound (`TruePeakInterpolator.BlockTest`)
/// stays at or below the reading are skipped — a steady tone's flanks.
extension TruePeakMeter {
    // The entry points sit in the file of the generic loops they call: a build that optimises
    // file by file (the debug build's `-O` modules) specialises a generic only for callers in
    // its own file, and unspecialised these loops cost four times the CPU.

    /// Measures interleaved 16-bit samples (full scale 32768).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int16>) {
        accumulate(samples)
    }

    /// Measures interleaved 32-bit samples, 24-bit audio left-justified (full scale 2³¹).
    public mutating func consume(_ samples: UnsafeBufferPointer<Int32>) {
        accumulate(samples)
    }

    /// Measures interleaved floating-point samples (full scale 1.0).
    public mutating func consume(_ samples: UnsafeBufferPointer<Float>) {
        accumulate(samples)
    }

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
                // Full-scale samples are only noted here (no branch per sample); the clip rule
                // runs over the frames again only when there is one, which is rare.
                var fullScale: UInt8 = 0
                var first = 0
                if Sample.self == Int16.self, channels <= 2 {
                    // Eight frames at a time: the same values (an Int16 converts to Float
                    // exactly, and the scale is a power of two), the same peak.
                    first = Self.gatherInt16(
                        UnsafeRawPointer(base), channel: channel, channels: channels, frames: frames,
                        into: destination, peak: &peak, fullScale: &fullScale)
                    source += first * channels
                }
                for frame in first..<frames {
                    let sample = source.pointee
                    let value = Sample.normalizedValue(sample)
                    fullScale |= Sample.isFullScale(sample) ? 1 : 0
                    peak = max(peak, value.magnitude)
                    destination[frame] = value
                    source += channels
                }
                if fullScale != 0 {
                    var run = fullScaleRuns[channel]
                    source = base + channel
                    for _ in 0..<frames {
                        if ClipRule.advance(&run, isFullScale: Sample.isFullScale(source.pointee)) { clips += 1 }
                        source += channels
                    }
                    fullScaleRuns[channel] = run
                } else if frames > 0 {
                    // No full-scale sample: every run ends, as ClipRule.advance would leave it.
                    fullScaleRuns[channel] = 0
                }
                samplePeaks[channel] = peak
                pendingCounts[channel] = pending + frames
            }
        }
        clipCount += clips
    }

    /// The whole groups of eight frames of `channel` of interleaved Int16 (`channels` 1 or 2)
    /// into `destination`, their largest magnitude into `peak` and whether one sits at full
    /// scale into `fullScale`; returns the frames done.
    @inline(__always)
    private static func gatherInt16(
        _ base: UnsafeRawPointer, channel: Int, channels: Int, frames: Int, into destination: UnsafeMutablePointer<Float>,
        peak: inout Float, fullScale: inout UInt8
    ) -> Int {
        var peaks = SIMD8<Float>()
        var frame = 0
        let output = UnsafeMutableRawPointer(destination)
        while frame + 8 <= frames {
            let samples: SIMD8<Int16>
            if channels == 2 {
                let pairs = base.loadUnaligned(fromByteOffset: frame * 4, as: SIMD16<Int16>.self)
                samples = channel == 0 ? pairs.evenHalf : pairs.oddHalf
            } else {
                samples = base.loadUnaligned(fromByteOffset: frame * 2, as: SIMD8<Int16>.self)
            }
            let values = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: samples)) * (1 / 32768)
            output.storeBytes(of: values, toByteOffset: frame * 4, as: SIMD8<Float>.self)
            peaks = TruePeakInterpolator.largest(peaks, TruePeakInterpolator.magnitude(values))
            frame += 8
        }
        let largest = TruePeakInterpolator.largestLane(peaks)
        // |value| ≥ 32767/32768 exactly when |sample| ≥ 32767: Int16.isFullScale.
        if largest >= 32767 / 32768 { fullScale = 1 }
        peak = max(peak, largest)
        return frame
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
        let blockTestPause = blockTestPauses[channel]
        var skipped = false
        var skippedBlocks = 0
        var testedBlocks = false
        var halfPhaseOnly = false
        let peak = channelInputs.withUnsafeMutableBufferPointer { inputs -> Float in
            guard let input = inputs.baseAddress.map({ $0 + start }) else { return 0 }
            var peak: Float = 0
            let (selection, largestInput) = interpolator.phasesThatCanRaise(held, input, outputs: count)
            switch selection {
            case .none: skipped = true
            case .half:
                peak = interpolator.largestMagnitude(input, outputs: count, halfPhaseOnly: true)
                halfPhaseOnly = true
            case .all where blockTestPause == 0:
                let skipping = TruePeakInterpolator.BlockSkip(held: held, largestInput: largestInput)
                let result = interpolator.largestMagnitude(input, outputs: count, halfPhaseOnly: false, skipping: skipping)
                peak = result.peak
                skippedBlocks = result.skippedBlocks
                testedBlocks = true
            case .all: peak = interpolator.largestMagnitude(input, outputs: count, halfPhaseOnly: false)
            }
            // The newest samples become the next chunk's history.
            for index in 0..<history {
                input[index] = input[count + index]
            }
            return peak
        }
        truePeaks[channel] = max(truePeaks[channel], peak)
        if skipped { skippedChunkCount += 1 }
        skippedBlockCount += skippedBlocks
        if halfPhaseOnly { halfPhaseChunkCount += 1 }
        if testedBlocks {
            // Blocks are tested only while testing pays: after a chunk with fewer than one
            // block in eight skipped (full-band noise: none), the next chunks go untested.
            let blocks = count / 8
            blockTestPauses[channel] = skippedBlocks * 8 < blocks ? Self.untestedChunksAfterAMiss : 0
        } else if blockTestPause > 0 {
            blockTestPauses[channel] = blockTestPause - 1
        }
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
    /// The computed phases that can raise a reading: none, the half-way phase alone, or all.
    enum PhaseSelection {
        case none, half, all
    }

    /// Which phases of `outputs` input instants can have an oversampled value above `held`.
    ///
    /// `input` holds `tapsPerPhase − 1` samples of history followed by `outputs` new samples,
    /// all within [low, high]. Each value is Σ c·x = m·Σc + Σ c·(x − m) with m the middle of
    /// that range, so it is at most |m|·|Σc| + Σ|c|·(high − low)/2 (a DC offset does not
    /// inflate the bound), plus a margin far above the rounding of 16 Float products and sums.
    /// The half-way phase has the largest Σ|c| (2.040 at ×4, against 1.755 for phases 1 and 3,
    /// mirror images of each other), so full-band noise often needs that phase alone.
    /// Also returns the largest input magnitude of the window.
    func phasesThatCanRaise(
        _ held: Float, _ input: UnsafePointer<Float>, outputs: Int
    ) -> (selection: PhaseSelection, largestInput: Float) {
        guard factor > 1, outputs > 0 else { return (.none, 0) }
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
        let margin = 1e-5 * absoluteGain * (middle.magnitude + halfRange)
        let held = Double(held)
        let largestInput = max(smallest.magnitude, largest.magnitude)
        let outerCanRaise = middle.magnitude * outerDirectGain + outerAbsoluteGain * halfRange + margin > held
        if outerCanRaise { return (.all, largestInput) }
        let halfCanRaise = middle.magnitude * halfDirectGain + halfAbsoluteGain * halfRange + margin > held
        return (halfCanRaise ? .half : .none, largestInput)
    }

    /// The largest magnitude of the computed phases for `outputs` input instants.
    ///
    /// `input` holds `tapsPerPhase − 1` samples of history followed by `outputs` new samples.
    /// With `halfPhaseOnly`, only the half-way phase (the one phase at ×2, phase 2 at ×4) is
    /// computed, each value the same to the bit as among all phases.
    func largestMagnitude(_ input: UnsafePointer<Float>, outputs: Int, halfPhaseOnly: Bool = false) -> Float {
        largestMagnitude(input, outputs: outputs, halfPhaseOnly: halfPhaseOnly, skipping: nil).peak
    }

    /// What lets a block of eight instants go uncomputed: the reading held (no point at or
    /// below it can change a figure) and the largest input magnitude of the chunk (for the
    /// rounding margin).
    struct BlockSkip {
        var held: Float
        var largestInput: Float
    }

    /// As `largestMagnitude(_:outputs:halfPhaseOnly:)`, and with `skipping` each block of eight
    /// instants whose points cannot exceed `skipping.held` is left out (`BlockTest`); the
    /// peak then covers the computed blocks only, and `skippedBlocks` counts the others.
    func largestMagnitude(
        _ input: UnsafePointer<Float>, outputs: Int, halfPhaseOnly: Bool, skipping: BlockSkip?
    ) -> (peak: Float, skippedBlocks: Int) {
        var test: BlockTest?
        if let skipping {
            let margin = 1e-5 * (Float(absoluteGain) + 4 * Float(curvatureGain)) * skipping.largestInput
            test = BlockTest(
                threshold: skipping.held - margin, lineGain: Float(lineGain), curvatureGain: Float(curvatureGain))
        }
        switch factor {
        case 4 where halfPhaseOnly: return Self.largestMagnitude(input, outputs: outputs, phases: 1, taps: halfTaps, test: test)
        case 4: return Self.largestMagnitude(input, outputs: outputs, phases: 3, taps: taps, test: test)
        case 2: return Self.largestMagnitude(input, outputs: outputs, phases: 1, taps: taps, test: test)
        default: return (0, 0)
        }
    }

    /// The per-block bound: a block of eight instants is skipped when lineGain·c +
    /// curvatureGain·d ≤ threshold, c the largest |x| of its nine central samples and d the
    /// largest |second difference| around it.
    ///
    /// For a phase with coefficients c_k over the window y_0…y_15 (the instant lies between y_7
    /// and y_8), let ℓ be the line through y_7 and y_8 and r_k = y_k − ℓ_k. Then
    /// Σ c·y = (S0 − S1)·y_7 + S1·y_8 + Σ c·r, with S0 = Σ c_k and S1 = Σ c_k·(k − 7), and
    /// |r_k| ≤ (k − 7)(k − 8)/2 · max|Δ²y| over the window's second differences (centres 1…14).
    /// So |value| ≤ lineGain·max(|y_7|, |y_8|) + curvatureGain·max|Δ²y|, lineGain =
    /// max(|S0 − S1| + |S1|) ≈ 1 and curvatureGain = max Σ|c_k|·(k − 7)(k − 8)/2 ≈ 2.9 over the
    /// computed phases; over a block, c covers samples 7…15 of its first window and d the
    /// centres 1…24 (three aligned groups of eight, a superset of the 1…21 needed). Near a
    /// steady tone's crests it cannot skip; on its flanks (|x| clearly below the crest, the
    /// curvature small) it does. The threshold carries a margin far above the rounding of the
    /// Float products, sums and second differences.
    struct BlockTest {
        var threshold: Float
        var lineGain: Float
        var curvatureGain: Float
    }

    @inline(__always)
    private static func largestMagnitude(
        _ input: UnsafePointer<Float>, outputs: Int, phases: Int, taps: [SIMD8<Float>], test: BlockTest?
    ) -> (peak: Float, skippedBlocks: Int) {
        guard let test, outputs >= 8 else {
            return (largestMagnitude(input, outputs: outputs, phases: phases, taps: taps, bounds: nil, test: nil), 0)
        }
        // Per block b (instants 8b…8b+7), the bound of `BlockTest`, all blocks first.
        let blocks = outputs / 8
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * blocks + 2) { scratch in
            guard let bends = scratch.baseAddress else { return (0, 0) }
            let bounds = bends + blocks + 2
            // bends[j]: the largest |x[c − 1] − 2x[c] + x[c + 1]| over centres 8j+1…8j+8 that
            // exist (c ≤ outputs + tapsPerPhase − 3; the others count 0).
            let lastCentre = outputs + tapsPerPhase - 3
            let raw = UnsafeRawPointer(input)
            for group in 0..<(blocks + 2) {
                let centre = 8 * group + 1
                if centre + 7 <= lastCentre {
                    let before = raw.loadUnaligned(fromByteOffset: (centre - 1) * 4, as: SIMD8<Float>.self)
                    let at = raw.loadUnaligned(fromByteOffset: centre * 4, as: SIMD8<Float>.self)
                    let after = raw.loadUnaligned(fromByteOffset: (centre + 1) * 4, as: SIMD8<Float>.self)
                    bends[group] = largestLane(magnitude((before + after) - (at + at)))
                } else {
                    var bend: Float = 0
                    var index = centre
                    while index <= min(lastCentre, centre + 7) {
                        bend = max(bend, ((input[index - 1] + input[index + 1]) - (input[index] + input[index])).magnitude)
                        index += 1
                    }
                    bends[group] = bend
                }
            }
            for block in 0..<blocks {
                let window = input + 8 * block
                // Samples 7…15 of the block's first window (7 and 8 of each instant's), and
                // second differences centred at 1…24 of it (1…14 of each instant's, and more).
                let central = magnitude(UnsafeRawPointer(window).loadUnaligned(fromByteOffset: 7 * 4, as: SIMD8<Float>.self))
                let centralPeak = max(largestLane(central), window[15].magnitude)
                let bend = max(max(bends[block], bends[block + 1]), bends[block + 2])
                bounds[block] = test.lineGain * centralPeak + test.curvatureGain * bend
            }
            var skipped = 0
            let peak = largestMagnitude(
                input, outputs: outputs, phases: phases, taps: taps, bounds: UnsafePointer(bounds), test: test,
                skipped: &skipped)
            return (peak, skipped)
        }
    }

    @inline(__always)
    private static func largestMagnitude(
        _ input: UnsafePointer<Float>, outputs: Int, phases: Int, taps: [SIMD8<Float>],
        bounds: UnsafePointer<Float>?, test: BlockTest?
    ) -> Float {
        var skipped = 0
        return largestMagnitude(
            input, outputs: outputs, phases: phases, taps: taps, bounds: bounds, test: test, skipped: &skipped)
    }

    @inline(__always)
    private static func largestMagnitude(
        _ input: UnsafePointer<Float>, outputs: Int, phases: Int, taps: [SIMD8<Float>],
        bounds: UnsafePointer<Float>?, test: BlockTest?, skipped: inout Int
    ) -> Float {
        taps.withUnsafeBufferPointer { taps -> Float in
            guard let tap = taps.baseAddress else { return 0 }
            var peak = SIMD8<Float>()
            var output = 0
            var skippedBlocks = 0
            while output + 8 <= outputs {
                if let test, let bounds, bounds[output / 8] <= test.threshold {
                    skippedBlocks += 1
                    output += 8
                    continue
                }
                let window = UnsafeRawPointer(input + output)
                if phases == 3 {
                    peak = largest(peak, threePhases(window, tap))
                } else {
                    peak = largest(peak, onePhase(window, tap))
                }
                output += 8
            }
            skipped = skippedBlocks
            var largest = largestLane(peak)
            // The last outputs one at a time, in the same order of operations.
            while output < outputs {
                let window = input + output
                for phase in 0..<phases {
                    var even: Float = 0
                    var odd: Float = 0
                    var index = 0
                    while index < tapsPerPhase {
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

    /// The largest of the eight lanes, by halving.
    @inline(__always)
    static func largestLane(_ value: SIMD8<Float>) -> Float {
        let four = largest4(value.lowHalf, value.highHalf)
        let two = four.lowHalf.replacing(with: four.highHalf, where: four.highHalf .> four.lowHalf)
        return two[1] > two[0] ? two[1] : two[0]
    }

    @inline(__always)
    private static func largest4(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        a.replacing(with: b, where: b .> a)
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
    static func magnitude(_ value: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(value, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    }

    @inline(__always)
    static func largest(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: b .> a)
    }
}
