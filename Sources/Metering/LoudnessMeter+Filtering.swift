/// The consuming loops behind `LoudnessMeter.consume(_:)`.
///
/// Whole frames up to the next sub-block boundary are filtered a pair of channels at a time
/// (the last of an odd count alone), the filter states held in registers and each stage run in
/// direct form I after two frames (`filterChannel`); samples of a frame split across buffers go
/// through the one-sample path, which keeps the same (transposed direct form II) state in the
/// arrays.
extension LoudnessMeter {
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
        while count - index >= channelCount {
            let frames = min((count - index) / channelCount, subBlockLength - framesInSubBlock)
            filterFrames(base + index, frames: frames)
            index += frames * channelCount
            if framesInSubBlock == subBlockLength { closeSubBlock() }
        }
        while index < count {
            consumeOne(base[index])
            index += 1
        }
    }

    /// Filters `frames` whole frames starting at `base`, which holds a frame's first channel.
    ///
    /// Channels go two at a time where they can (`filterChannelPair`), the rest one at a time.
    private mutating func filterFrames<Sample: LoudnessSample>(_ base: UnsafePointer<Sample>, frames: Int) {
        var firstSingle = 0
        while firstSingle + 1 < channelCount {
            filterChannelPair(base, first: firstSingle, frames: frames)
            firstSingle += 2
        }
        for channel in firstSingle..<channelCount {
            filterChannel(base, channel: channel, frames: frames)
        }
        framesInSubBlock += frames
        consumedFrames += frames
    }

    /// Filters channel `channel` of `frames` whole frames.
    ///
    /// The first two frames go through `KWeightingState.process` (transposed direct form II);
    /// from the third on each stage runs in direct form I, y = ((b0·x + b1·x₁ + b2·x₂) − a2·y₂)
    /// − a1·y₁, whose recursion waits for one multiply and one subtract per sample instead of
    /// the transposed form's four operations; at the end the last two inputs and outputs of
    /// each stage become the transposed form's state again. The same filter, rounded
    /// differently: energies agree with the one-sample path to about 10⁻¹³ (relative), far
    /// inside the 10⁻⁹ LU the readings are held to.
    private mutating func filterChannel<Sample: LoudnessSample>(_ base: UnsafePointer<Sample>, channel: Int, frames: Int) {
        let filter = self.filter
        let shelf = filter.shelf
        let highPass = filter.highPass
        let stride = channelCount
        var state = filterStates[channel]
        var energy = 0.0
        var pointer = base + channel
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0, o1 = 0.0, o2 = 0.0
        let warmUp = min(frames, 2)
        for _ in 0..<warmUp {
            let x = Double(Sample.normalizedValue(pointer.pointee))
            let shelved = shelf.b0 * x + state.shelfFirst
            let output = state.process(x, filter)
            energy += output * output
            x2 = x1; x1 = x; y2 = y1; y1 = shelved; o2 = o1; o1 = output
            pointer += stride
        }
        if frames > 2 {
            for _ in 2..<frames {
                let x = Double(Sample.normalizedValue(pointer.pointee))
                let shelved = ((shelf.b0 * x + shelf.b1 * x1) + shelf.b2 * x2 - shelf.a2 * y2) - shelf.a1 * y1
                let output = ((shelved - 2 * y1) + y2 - highPass.a2 * o2) - highPass.a1 * o1
                energy += output * output
                x2 = x1; x1 = x; y2 = y1; y1 = shelved; o2 = o1; o1 = output
                pointer += stride
            }
            state.shelfFirst = (shelf.b1 * x1 + shelf.b2 * x2) - (shelf.a1 * y1 + shelf.a2 * y2)
            state.shelfSecond = shelf.b2 * x1 - shelf.a2 * y1
            state.highPassFirst = (-2 * y1 + y2) - (highPass.a1 * o1 + highPass.a2 * o2)
            state.highPassSecond = y1 - highPass.a2 * o1
        }
        state.flushTinyValues()
        filterStates[channel] = state
        channelEnergies[channel] += energy
    }

    /// Filters channels `first` and `first + 1` together, one in each lane of a `SIMD2<Double>`.
    ///
    /// The two recursions are independent, so running them side by side takes about the time
    /// of one (each sample waits for the previous one's output); every lane performs the same
    /// operations in the same order as `filterChannel` (two frames in transposed direct form
    /// II, then direct form I), so the energies are the same to the bit as filtering the
    /// channels one after the other.
    private mutating func filterChannelPair<Sample: LoudnessSample>(
        _ base: UnsafePointer<Sample>, first: Int, frames: Int
    ) {
        let shelf = filter.shelf
        let highPass = filter.highPass
        let stride = channelCount
        let left = filterStates[first]
        let right = filterStates[first + 1]
        var shelfFirst = SIMD2(left.shelfFirst, right.shelfFirst)
        var shelfSecond = SIMD2(left.shelfSecond, right.shelfSecond)
        var highPassFirst = SIMD2(left.highPassFirst, right.highPassFirst)
        var highPassSecond = SIMD2(left.highPassSecond, right.highPassSecond)
        var energy = SIMD2<Double>()
        var pointer = base + first
        var x1 = SIMD2<Double>(), x2 = SIMD2<Double>(), y1 = SIMD2<Double>(), y2 = SIMD2<Double>()
        var o1 = SIMD2<Double>(), o2 = SIMD2<Double>()
        let warmUp = min(frames, 2)
        for _ in 0..<warmUp {
            let x = SIMD2(Double(Sample.normalizedValue(pointer[0])), Double(Sample.normalizedValue(pointer[1])))
            let shelved = shelf.b0 * x + shelfFirst
            shelfFirst = shelf.b1 * x - shelf.a1 * shelved + shelfSecond
            shelfSecond = shelf.b2 * x - shelf.a2 * shelved
            let output = shelved + highPassFirst
            highPassFirst = -2 * shelved - highPass.a1 * output + highPassSecond
            highPassSecond = shelved - highPass.a2 * output
            energy = energy + output * output
            x2 = x1; x1 = x; y2 = y1; y1 = shelved; o2 = o1; o1 = output
            pointer += stride
        }
        if frames > 2 {
            for _ in 2..<frames {
                let x = SIMD2(Double(Sample.normalizedValue(pointer[0])), Double(Sample.normalizedValue(pointer[1])))
                let shelved = ((shelf.b0 * x + shelf.b1 * x1) + shelf.b2 * x2 - shelf.a2 * y2) - shelf.a1 * y1
                let output = ((shelved - 2 * y1) + y2 - highPass.a2 * o2) - highPass.a1 * o1
                energy = energy + output * output
                x2 = x1; x1 = x; y2 = y1; y1 = shelved; o2 = o1; o1 = output
                pointer += stride
            }
            shelfFirst = (shelf.b1 * x1 + shelf.b2 * x2) - (shelf.a1 * y1 + shelf.a2 * y2)
            shelfSecond = shelf.b2 * x1 - shelf.a2 * y1
            highPassFirst = (-2 * y1 + y2) - (highPass.a1 * o1 + highPass.a2 * o2)
            highPassSecond = y1 - highPass.a2 * o1
        }
        for lane in 0..<2 {
            var state = KWeightingState(
                shelfFirst: shelfFirst[lane], shelfSecond: shelfSecond[lane],
                highPassFirst: highPassFirst[lane], highPassSecond: highPassSecond[lane])
            state.flushTinyValues()
            filterStates[first + lane] = state
            channelEnergies[first + lane] += energy[lane]
        }
    }

    /// Filters one sample of the channel `nextChannel`.
    private mutating func consumeOne<Sample: LoudnessSample>(_ sample: Sample) {
        let channel = nextChannel
        let output = filterStates[channel].process(Double(Sample.normalizedValue(sample)), filter)
        channelEnergies[channel] += output * output
        nextChannel += 1
        guard nextChannel == channelCount else { return }
        nextChannel = 0
        framesInSubBlock += 1
        consumedFrames += 1
        if framesInSubBlock == subBlockLength { closeSubBlock() }
    }
}
