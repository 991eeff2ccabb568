/// The consuming loops behind `LoudnessMeter.consume(_:)`.
///
/// Whole frames up to the next sub-block boundary are filtered a pair of channels at a time
/// (the last of an odd count alone), the filter states held in registers; samples of a frame
/// split across buffers go through the one-sample path, which keeps the same state in the arrays.
extension LoudnessMeter {
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
        let filter = self.filter
        let stride = channelCount
        var firstSingle = 0
        while firstSingle + 1 < channelCount {
            filterChannelPair(base, first: firstSingle, frames: frames)
            firstSingle += 2
        }
        for channel in firstSingle..<channelCount {
            var state = filterStates[channel]
            var energy = 0.0
            var pointer = base + channel
            for _ in 0..<frames {
                let output = state.process(Double(Sample.normalizedValue(pointer.pointee)), filter)
                energy += output * output
                pointer += stride
            }
            state.flushTinyValues()
            filterStates[channel] = state
            channelEnergies[channel] += energy
        }
        framesInSubBlock += frames
        consumedFrames += frames
    }

    /// Filters channels `first` and `first + 1` together, one in each lane of a `SIMD2<Double>`.
    ///
    /// The two recursions are independent, so running them side by side takes about the time
    /// of one (each sample waits for the previous one's output); every lane performs the same
    /// operations in the same order as `KWeightingState.process`, so the energies are the same
    /// to the bit as filtering the channels one after the other.
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
        for _ in 0..<frames {
            let x = SIMD2(Double(Sample.normalizedValue(pointer[0])), Double(Sample.normalizedValue(pointer[1])))
            let shelved = shelf.b0 * x + shelfFirst
            shelfFirst = shelf.b1 * x - shelf.a1 * shelved + shelfSecond
            shelfSecond = shelf.b2 * x - shelf.a2 * shelved
            let output = shelved + highPassFirst
            highPassFirst = -2 * shelved - highPass.a1 * output + highPassSecond
            highPassSecond = shelved - highPass.a2 * output
            energy = energy + output * output
            pointer += stride
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
