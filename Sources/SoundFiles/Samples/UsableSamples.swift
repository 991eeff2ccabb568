import Synchronization

/// What making float samples usable replaced: samples that were not numbers (NaN, ±∞), written
/// as silence, and finite samples beyond full scale, clamped to ±1.
public struct ReplacedSamples: Sendable, Equatable {
    public var notNumbers: Int
    public var clamped: Int

    public init(notNumbers: Int = 0, clamped: Int = 0) {
        self.notNumbers = notNumbers
        self.clamped = clamped
    }

    public var isEmpty: Bool { notNumbers == 0 && clamped == 0 }

    public static func += (total: inout ReplacedSamples, more: ReplacedSamples) {
        total.notNumbers += more.notNumbers
        total.clamped += more.clamped
    }

    /// The report a command prints, or nil when nothing was replaced: "12 samples were not
    /// numbers and were written as silence; 3 samples beyond full scale were clamped".
    public var sentence: String? {
        var parts: [String] = []
        if notNumbers > 0 {
            parts.append(notNumbers == 1
                ? "1 sample was not a number and was written as silence"
                : "\(notNumbers) samples were not numbers and were written as silence")
        }
        if clamped > 0 {
            parts.append("\(clamped) \(clamped == 1 ? "sample" : "samples") beyond full scale "
                + "\(clamped == 1 ? "was" : "were") clamped")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

/// The one rule for float samples before an encoder, a meter or a DSP stage sees them: every
/// sample is finite and within -1…1. NaN and ±∞ (a damaged float file, a float device, a
/// stream's decoder) become 0; a finite sample beyond full scale is clamped. LAME asserts on a
/// NaN (and on a finite 1e36, whose energy overflows) and aborts the process; FFmpeg's AAC
/// encoder refuses the frame.
public enum UsableSamples {
    /// What readers of each file repaired, the most one whole read found (`SoundFileReader`
    /// notes it when closed): every pass over a file meets the same samples, so a command that
    /// reads a file several times (measure, then write) reports it once.
    private static let repairsByPath = Mutex<[String: ReplacedSamples]>([:])

    static func noteRepairs(_ replaced: ReplacedSamples, readingPath path: String) {
        guard !replaced.isEmpty else { return }
        repairsByPath.withLock { repairs in
            let known = repairs[path] ?? ReplacedSamples()
            if replaced.notNumbers + replaced.clamped > known.notNumbers + known.clamped { repairs[path] = replaced }
        }
    }

    /// What the readers of `path` closed since `forgetRepairs(readingPath:)` repaired.
    public static func repairs(readingPath path: String) -> ReplacedSamples {
        repairsByPath.withLock { $0[path] ?? ReplacedSamples() }
    }

    public static func forgetRepairs(readingPath path: String) {
        repairsByPath.withLock { _ = $0.removeValue(forKey: path) }
    }

    /// Makes `samples` usable in place and says what it replaced.
    ///
    /// Eight samples at a time are only compared (every capture of a float input and every
    /// float write passes here); a block of eight with an unusable sample, and the tail, go
    /// through the sample-by-sample rule.
    public static func repair(_ samples: UnsafeMutableBufferPointer<Float>) -> ReplacedSamples {
        var replaced = ReplacedSamples()
        guard let base = samples.baseAddress else { return replaced }
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + lanes)
            if end - start < lanes || !vectorIsUsable(UnsafeRawPointer(base + start)) {
                replaced += repairOneByOne(UnsafeMutableBufferPointer(rebasing: samples[start..<end]))
            }
            start = end
        }
        return replaced
    }

    /// Samples compared at once by `repair` and `areUsable`.
    private static let lanes = 8

    /// Whether the eight samples at `pointer` are all within -1…1 (false for NaN, which
    /// compares false).
    @inline(__always)
    private static func vectorIsUsable(_ pointer: UnsafeRawPointer) -> Bool {
        let vector = pointer.loadUnaligned(as: SIMD8<Float>.self)
        let one = SIMD8<Float>(repeating: 1)
        return all((vector .<= one) .& (vector .>= -one))
    }

    private static func repairOneByOne(_ samples: UnsafeMutableBufferPointer<Float>) -> ReplacedSamples {
        var replaced = ReplacedSamples()
        for index in samples.indices {
            let sample = samples[index]
            // One comparison for the common case: false for NaN and for anything past ±1.
            if sample.magnitude <= 1 { continue }
            if sample.isFinite {
                samples[index] = sample > 0 ? 1 : -1
                replaced.clamped += 1
            } else {
                samples[index] = 0
                replaced.notNumbers += 1
            }
        }
        return replaced
    }

    /// Makes the `count` samples at `bytes`, stored as `format`, usable in place. Integer
    /// samples are always usable.
    public static func repair(_ bytes: UnsafeMutableRawPointer, samples count: Int, format: SampleFormat)
        -> ReplacedSamples
    {
        guard format == .float32, count > 0 else { return ReplacedSamples() }
        return repair(UnsafeMutableBufferPointer(start: bytes.assumingMemoryBound(to: Float.self), count: count))
    }

    /// One sample made usable.
    @inline(__always)
    public static func usable(_ sample: Float) -> Float {
        if sample.magnitude <= 1 { return sample }
        return sample.isFinite ? (sample > 0 ? 1 : -1) : 0
    }

    /// Whether every one of `samples` is already usable.
    public static func areUsable(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        guard let base = samples.baseAddress else { return true }
        let whole = samples.count - samples.count % lanes
        var start = 0
        while start < whole {
            if !vectorIsUsable(UnsafeRawPointer(base + start)) { return false }
            start += lanes
        }
        for sample in samples[whole...] where !(sample.magnitude <= 1) { return false }
        return true
    }
}
