/// The loop behind `InputDiagnostics.consume(_:)`: one pass over the samples, a block of
/// 50 ms at a time, finishing each block as it fills.
///
/// A plain scalar loop: the diagnostics run on the app's queue at the capture rate (about
/// 100,000 samples a second for stereo at 48 kHz), where a few comparisons per sample cost
/// little next to the meters; buffers that end mid-frame or mid-block carry on in the next.
extension InputDiagnostics {
    mutating func accumulate<Sample: LoudnessSample>(_ samples: UnsafeBufferPointer<Sample>) {
        var channel = nextChannel
        for sample in samples {
            let value = Sample.normalizedValue(sample)
            blocks[channel].add(value, isFullScale: Sample.isFullScale(sample))
            channel += 1
            if channel == channelCount {
                channel = 0
                framesInBlock += 1
                if framesInBlock == blockFrames { finishBlock() }
            }
        }
        nextChannel = channel
    }
}

extension BlockAccumulator {
    @inline(__always)
    mutating func add(_ value: Float, isFullScale: Bool) {
        if value < low { low = value }
        if value > high { high = value }
        let magnitude = value.magnitude
        if magnitude > peak { peak = magnitude }
        if isFullScale { hasFullScale = true }
        let wide = Double(value)
        sum += wide
        sumOfSquares += wide * wide
        count += 1
    }
}
