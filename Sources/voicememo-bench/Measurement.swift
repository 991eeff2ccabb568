/// Timing of repeated runs of one piece of work.
struct Measurement {
    let name: String
    let bytesPerRun: Int
    private(set) var seconds: [Double] = []

    init(name: String, bytesPerRun: Int) {
        self.name = name
        self.bytesPerRun = bytesPerRun
    }

    /// Runs `work` once and records how long it took.
    mutating func time(_ work: () -> Void) {
        let clock = ContinuousClock()
        let elapsed = clock.measure(work)
        let (wholeSeconds, attoseconds) = elapsed.components
        seconds.append(Double(wholeSeconds) + Double(attoseconds) * 1e-18)
    }

    /// Throughput of the fastest run, in GB/s (10⁹ bytes per second).
    var bestGigabytesPerSecond: Double {
        gigabytesPerSecond(seconds.min() ?? .infinity)
    }

    /// Throughput of the median run, in GB/s.
    var medianGigabytesPerSecond: Double {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else { return 0 }
        return gigabytesPerSecond(sorted[sorted.count / 2])
    }

    private func gigabytesPerSecond(_ seconds: Double) -> Double {
        Double(bytesPerRun) / seconds / 1e9
    }
}
