import Metering

/// `voicememo-bench loudness`: LoudnessMeter and TruePeakMeter against real time and against
/// LevelMeter, over 60 s of 48 kHz stereo Float32 fed in 4,800-frame (100 ms) buffers.
///
/// The kinds of run are interleaved round by round, so a neighbour's compile job slows them
/// alike; the best round of each is reported, the median in brackets.
struct LoudnessBenchmark {
    static let sampleRate = 48_000
    static let seconds = 60
    static let bufferFrames = 4_800
    static let rounds = 5
    /// The whole meter (peak, RMS, K-weighted loudness, true peak) must run this much faster
    /// than real time on one core.
    static let fullMeterGoal = 200.0

    func run() {
        let frames = Self.sampleRate * Self.seconds
        let samples = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames * 2)
        defer { samples.deallocate() }
        TestSignal.fill(samples)
        let input = UnsafeBufferPointer(samples)
        let bytes = frames * 2 * MemoryLayout<Float>.size
        var level = Measurement(name: "LevelMeter", bytesPerRun: bytes)
        var loudness = Measurement(name: "LoudnessMeter", bytesPerRun: bytes)
        var truePeak = Measurement(name: "TruePeakMeter", bytesPerRun: bytes)
        var full = Measurement(name: "all three", bytesPerRun: bytes)
        var sink = Sink()
        for _ in 0..<Self.rounds {
            level.time { sink.absorb(Self.levelMeter(input)) }
            loudness.time { sink.absorb(Self.loudnessMeter(input)) }
            truePeak.time { sink.absorb(Self.truePeakMeter(input)) }
            full.time {
                sink.absorb(Self.levelMeter(input) + Self.loudnessMeter(input) + Self.truePeakMeter(input))
            }
        }
        print("Loudness throughput, \(Self.seconds) s of 48 kHz stereo Float32 in 100 ms buffers, "
            + "best of \(Self.rounds) rounds (median)")
        for runs in [level, loudness, truePeak] {
            report(runs, goal: nil, reference: level)
        }
        report(full, goal: Self.fullMeterGoal, reference: level)
        print("(checksum \(fixed(sink.total, decimals: 3)))")
    }

    private func report(_ runs: Measurement, goal: Double?, reference: Measurement) {
        let bestSeconds = runs.seconds.min() ?? .infinity
        let medianSeconds = runs.seconds.sorted()[runs.seconds.count / 2]
        let realTime = Double(Self.seconds) / bestSeconds
        var line = runs.name.padding(to: 16)
        line += "\(fixed(realTime, decimals: 0))× real time".leftPadding(to: 18)
        line += " (\(fixed(Double(Self.seconds) / medianSeconds, decimals: 0)))"
        let cost = bestSeconds / (reference.seconds.min() ?? .infinity)
        line += "  \(fixed(cost, decimals: 1))× LevelMeter's time"
        if let goal {
            line += "  goal ≥ \(fixed(goal, decimals: 0))×  \(realTime >= goal ? "PASS" : "MISS")"
        }
        print(line)
    }

    private static func buffers(_ input: UnsafeBufferPointer<Float>, _ body: (UnsafeBufferPointer<Float>) -> Void) {
        let step = bufferFrames * 2
        var start = 0
        while start < input.count {
            body(UnsafeBufferPointer(rebasing: input[start..<min(input.count, start + step)]))
            start += step
        }
    }

    private static func levelMeter(_ input: UnsafeBufferPointer<Float>) -> Float {
        var meter = LevelMeter(channels: 2)
        var total: Float = 0
        buffers(input) { buffer in
            meter.consume(buffer)
            meter.updateMeters()
            total += meter.averagePower(forChannel: 0) + meter.peakPower(forChannel: 1)
        }
        return total
    }

    private static func loudnessMeter(_ input: UnsafeBufferPointer<Float>) -> Float {
        var meter = LoudnessMeter(channels: 2, sampleRate: sampleRate)
        var total = 0.0
        buffers(input) { buffer in
            meter.consume(buffer)
            total += meter.momentaryLoudness ?? 0
        }
        return Float(total + (meter.integratedLoudness ?? 0) + (meter.loudnessRange ?? 0))
    }

    private static func truePeakMeter(_ input: UnsafeBufferPointer<Float>) -> Float {
        var meter = TruePeakMeter(channels: 2, sampleRate: sampleRate)
        buffers(input) { meter.consume($0) }
        return meter.truePeakLevel
    }
}
