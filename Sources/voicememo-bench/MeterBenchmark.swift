#if canImport(Glibc)
import Glibc
#endif
import Metering

/// `voicememo-bench meter`: LevelMeter throughput against memcpy of the same buffer.
///
/// The buffer is 64 MiB of interleaved stereo, far larger than the caches, so every run reads
/// from RAM as a real recording would. The three kinds of run are interleaved round by round,
/// so a neighbour's compile job slows them alike; the best round of each is compared.
struct MeterBenchmark {
    static let bufferBytes = 64 << 20
    static let rounds = 7
    static let floatGoal = 0.5
    static let int16Goal = 0.3

    func run() {
        let floatSamples = Self.bufferBytes / MemoryLayout<Float>.size
        let int16Samples = Self.bufferBytes / MemoryLayout<Int16>.size
        let floats = UnsafeMutableBufferPointer<Float>.allocate(capacity: floatSamples)
        let int16s = UnsafeMutableBufferPointer<Int16>.allocate(capacity: int16Samples)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferBytes, alignment: 64)
        defer {
            floats.deallocate()
            int16s.deallocate()
            copy.deallocate()
        }
        guard let copyBase = copy.baseAddress, let floatBase = floats.baseAddress else { return }
        TestSignal.fill(floats)
        TestSignal.fill(int16s)
        copy.initializeMemory(as: UInt8.self, repeating: 0)

        var memcpyRuns = Measurement(name: "memcpy", bytesPerRun: Self.bufferBytes)
        var floatRuns = Measurement(name: "LevelMeter Float32", bytesPerRun: Self.bufferBytes)
        var int16Runs = Measurement(name: "LevelMeter Int16", bytesPerRun: Self.bufferBytes)
        var sink = Sink()
        for _ in 0..<Self.rounds {
            memcpyRuns.time {
                memcpy(copyBase, floatBase, Self.bufferBytes)
            }
            sink.absorb(copy.load(fromByteOffset: Self.bufferBytes / 3 & ~3, as: Float.self))
            floatRuns.time {
                var meter = LevelMeter(channels: 2)
                meter.consume(UnsafeBufferPointer(floats))
                meter.updateMeters()
                sink.absorb(meter.averagePower(forChannel: 0) + meter.peakPower(forChannel: 1))
            }
            int16Runs.time {
                var meter = LevelMeter(channels: 2)
                meter.consume(UnsafeBufferPointer(int16s))
                meter.updateMeters()
                sink.absorb(meter.averagePower(forChannel: 1) + meter.peakPower(forChannel: 0))
            }
        }

        print("LevelMeter throughput, 64 MiB interleaved stereo, best of \(Self.rounds) rounds (median)")
        report(memcpyRuns, reference: nil, goal: nil)
        report(floatRuns, reference: memcpyRuns, goal: Self.floatGoal)
        report(int16Runs, reference: memcpyRuns, goal: Self.int16Goal)
        print("(checksum \(fixed(sink.total, decimals: 3)))")
    }

    private func report(_ runs: Measurement, reference: Measurement?, goal: Double?) {
        var line = runs.name.padding(to: 20)
        line += "\(fixed(runs.bestGigabytesPerSecond, decimals: 2)) GB/s".leftPadding(to: 12)
        line += " (\(fixed(runs.medianGigabytesPerSecond, decimals: 2)))"
        if let reference, let goal {
            let ratio = runs.bestGigabytesPerSecond / reference.bestGigabytesPerSecond
            let verdict = ratio >= goal ? "PASS" : "MISS"
            line += "  \(fixed(ratio, decimals: 2))× memcpy  goal ≥ \(fixed(goal, decimals: 1))×  \(verdict)"
        }
        print(line)
    }
}

/// Keeps results alive so the optimiser cannot drop the work that produced them.
struct Sink {
    private(set) var total = 0.0

    @inline(never)
    mutating func absorb(_ value: Float) {
        total += Double(value)
    }
}
