/// The consuming loops behind `TruePeakMeter.consume(_:)`.
///
/// Samples are sorted into per-channel inputs (sample peak and full-scale count on the way);
/// whenever a channel has `chunkLength` new samples the interpolator runs over them, all phases
/// of one output instant at once as a `SIMD4<Float>`, and the last `tapsPerPhase − 1` samples
/// stay behind as history. Nothing is allocated while consuming.
extension TruePeakMeter {
    mutating func accumulate<Sample: LoudnessSample>(_ samples: UnsafeBufferPointer<Sample>) {
        let channels = channelCount
        let history = Self.historyLength
        let stride = Self.channelStride
        let chunk = Self.chunkLength
        var channel = nextChannel
        var fullScale = 0
        for sample in samples {
            let value = Sample.normalizedValue(sample)
            if Sample.isFullScale(sample) { fullScale += 1 }
            let magnitude = value.magnitude
            if magnitude > samplePeaks[channel] { samplePeaks[channel] = magnitude }
            let pending = pendingCounts[channel]
            channelInputs[channel * stride + history + pending] = value
            if pending + 1 == chunk {
                oversample(channel: channel, count: chunk)
                pendingCounts[channel] = 0
            } else {
                pendingCounts[channel] = pending + 1
            }
            channel += 1
            if channel == channels { channel = 0 }
        }
        nextChannel = channel
        fullScaleSampleCount += fullScale
    }

    /// Runs the interpolator over `count` new samples of `channel` and keeps the tail as history.
    private mutating func oversample(channel: Int, count: Int) {
        let start = channel * Self.channelStride
        let history = Self.historyLength
        let peak = channelInputs.withUnsafeMutableBufferPointer { inputs -> Float in
            guard let input = inputs.baseAddress.map({ $0 + start }) else { return 0 }
            let peak = interpolator.largestMagnitude(input, outputs: count)
            // The newest samples become the next chunk's history.
            for index in 0..<history {
                input[index] = input[count + index]
            }
            return peak
        }
        truePeaks[channel] = max(truePeaks[channel], peak)
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
    /// The largest magnitude of all phases for `outputs` input instants.
    ///
    /// `input` holds `tapsPerPhase − 1` samples of history followed by `outputs` new samples.
    func largestMagnitude(_ input: UnsafePointer<Float>, outputs: Int) -> Float {
        taps.withUnsafeBufferPointer { taps -> Float in
            guard let tap = taps.baseAddress else { return 0 }
            let tapCount = taps.count
            var peak = SIMD4<Float>()
            for output in 0..<outputs {
                let window = input + output
                // Two accumulators halve the chain of dependent additions.
                var even = SIMD4<Float>()
                var odd = SIMD4<Float>()
                var index = 0
                while index + 1 < tapCount {
                    even = even + tap[index] * SIMD4(repeating: window[index])
                    odd = odd + tap[index + 1] * SIMD4(repeating: window[index + 1])
                    index += 2
                }
                if index < tapCount {
                    even = even + tap[index] * SIMD4(repeating: window[index])
                }
                let sum = even + odd
                let magnitude = sum.replacing(with: -sum, where: sum .< 0)
                peak = peak.replacing(with: magnitude, where: magnitude .> peak)
            }
            return peak.max()
        }
    }
}
