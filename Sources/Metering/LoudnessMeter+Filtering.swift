/// The consuming loops behind `LoudnessMeter.consume(_:)`.
///
/// Whole frames up to the next sub-block boundary are filtered one channel at a time, the
/// channel's filter state held in registers; samples of a frame split across buffers go
/// through the one-sample path, which keeps the same state in the arrays.
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
    private mutating func filterFrames<Sample: LoudnessSample>(_ base: UnsafePointer<Sample>, frames: Int) {
        let filter = self.filter
        let stride = channelCount
        for channel in 0..<channelCount {
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
