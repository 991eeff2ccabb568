#if canImport(Glibc)
import Glibc
#endif
import CEBUR128
import Metering

/// `voicememo-bench ebur128`: Metering's `LoudnessMeter` and `TruePeakMeter` against libebur128
/// (`EBUR128_MODE_I | EBUR128_MODE_LRA | EBUR128_MODE_TRUE_PEAK`), for correctness and for CPU.
///
/// Correctness: the EBU Tech 3341 cases of integrated loudness (1–9) and true peak (15–23) and
/// the Tech 3342 loudness-range cases (1–6), synthesised at 48 kHz as Float samples and fed to
/// both in 4,800-frame (100 ms) buffers; each value against the case's expected value and
/// tolerance. Cases made of authentic programme (3341-7, 3341-8, 3342-5, 3342-6) cannot be
/// synthesised and are listed without values. The published true-peak files 20–23 are not
/// described sample by sample, so their rows measure a stand-in with the same expected value:
/// a full-scale fs/6 sine whose crests fall 3/8, 1/8, 7/8 and 5/8 of a sample after one
/// (marked `*`).
///
/// CPU: integrated loudness, loudness range and true peak of a one-hour 48 kHz stereo Int16 memo
/// (`SpeechLikeMemo`, made block by block so memory stays small), ours and libebur128's fed the
/// same blocks in turn within one run, with a second libebur128 state of `EBUR128_MODE_I |
/// EBUR128_MODE_LRA` alone beside `LoudnessMeter` alone; the thread's user + system CPU time
/// around each meter's calls only, medians of `rounds` hours.
struct EBUR128Benchmark {
    static let sampleRate = 48_000
    static let bufferFrames = 4_800
    static let rounds = 3
    static let mode = Int32(bitPattern: EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)

    /// `VOICEMEMO_BENCH_EBUR128_SECONDS` (default 3600: the one-hour memo).
    static func secondsFromEnvironment() -> Int {
        guard let text = getenv("VOICEMEMO_BENCH_EBUR128_SECONDS"), let value = Int(String(cString: text)) else {
            return 3_600
        }
        return max(value, 10)
    }

    let seconds: Int

    func run() {
        print("EBU Tech 3341 and 3342 cases, synthesised at 48 kHz, Float samples in 100 ms buffers")
        let conformance = Self.conformance()
        print("")
        let figures = cpu()
        print("")
        let allPass = conformance.ours && conformance.theirs
        let notSlower = figures.ratio <= 1
        print("goal: every synthesised case within tolerance (ours \(conformance.ours ? "PASS" : "FAIL"), "
            + "libebur128 \(conformance.theirs ? "PASS" : "FAIL")); ours ≤ libebur128's CPU: "
            + "\(notSlower ? "PASS" : "MISS") (\(fixed(figures.ratio, decimals: 2))×)")
        if !allPass { print("(a FAIL above is a conformance difference, not a busy machine)") }
    }

    // MARK: - Conformance

    /// What a case reads.
    enum Quantity {
        /// Integrated loudness, LUFS.
        case integrated
        /// Short-term loudness, LUFS: the reading farthest from the expected value from 3 s on.
        case steadyShortTerm
        /// The largest true peak of any channel, dBTP.
        case truePeak
        /// Loudness range, LU.
        case range

        var label: String {
            switch self {
            case .integrated: "I LUFS"
            case .steadyShortTerm: "S LUFS"
            case .truePeak: "TP dBTP"
            case .range: "LRA LU"
            }
        }
    }

    /// One case: its name, what it reads, the expected value and the tolerance below and above
    /// it, and the signal (`nil` when it is authentic programme that cannot be synthesised).
    struct ConformanceCase {
        var name: String
        var quantity: Quantity
        var expected: Double
        var below: Double
        var above: Double
        var channels = 2
        var signal: (() -> [Float])?

        func passes(_ value: Double) -> Bool {
            value >= expected - below - 1e-9 && value <= expected + above + 1e-9
        }

        var tolerance: String {
            below == above ? "±\(fixed(above, decimals: 1))" : "+\(fixed(above, decimals: 1))/−\(fixed(below, decimals: 1))"
        }
    }

    /// Prints the table; returns whether every synthesised case passes, for each meter.
    private static func conformance() -> (ours: Bool, theirs: Bool) {
        print("case".padding(to: 10) + "reads".padding(to: 9) + "ours".leftPadding(to: 8) + "libebur128".leftPadding(to: 12)
            + "   " + "expected".padding(to: 18) + "ours".padding(to: 6) + "libebur128")
        var oursPass = true
        var theirsPass = true
        for testCase in cases() {
            var line = testCase.name.padding(to: 10) + testCase.quantity.label.padding(to: 9)
            let expected = "\(fixed(testCase.expected, decimals: 1)) \(testCase.tolerance)"
            guard let signal = testCase.signal else {
                line += "—".leftPadding(to: 8) + "—".leftPadding(to: 12) + "   " + expected.padding(to: 18)
                line += "authentic programme: not synthesised"
                print(line)
                continue
            }
            let samples = signal()
            let ours = measureOurs(samples, testCase)
            let theirs = measureTheirs(samples, testCase)
            oursPass = oursPass && testCase.passes(ours)
            theirsPass = theirsPass && testCase.passes(theirs)
            line += fixed(ours, decimals: 2).leftPadding(to: 8) + fixed(theirs, decimals: 2).leftPadding(to: 12)
            line += "   " + expected.padding(to: 18)
            line += (testCase.passes(ours) ? "PASS" : "FAIL").padding(to: 6) + (testCase.passes(theirs) ? "PASS" : "FAIL")
            print(line)
        }
        print("* stand-in for the published file: a 0 dBTP fs/6 sine, its crests 3/8, 1/8, 7/8, 5/8 of a sample after one")
        return (oursPass, theirsPass)
    }

    /// The cases of Tech 3341 (1–9, 15–23) and Tech 3342 (1–6).
    static func cases() -> [ConformanceCase] {
        func steps(_ steps: [(Double, Double)], channels: Int = 2) -> () -> [Float] {
            { tones(steps.map { level, seconds in (Array(repeating: level, count: channels), seconds) }) }
        }
        // Tech 3341 case 9: 1.34 s at −20 dBFS and 1.66 s at −30 dBFS make any 3 s read −23 LUFS.
        let burst: [(Double, Double)] = [(-20, 1.34), (-30, 1.66)]
        var result = [
            ConformanceCase(name: "3341-1", quantity: .integrated, expected: -23, below: 0.1, above: 0.1, signal: steps([(-23, 20)])),
            ConformanceCase(name: "3341-2", quantity: .integrated, expected: -33, below: 0.1, above: 0.1, signal: steps([(-33, 20)])),
            ConformanceCase(
                name: "3341-3", quantity: .integrated, expected: -23, below: 0.1, above: 0.1,
                signal: steps([(-36, 10), (-23, 60), (-36, 10)])),
            ConformanceCase(
                name: "3341-4", quantity: .integrated, expected: -23, below: 0.1, above: 0.1,
                signal: steps([(-72, 10), (-36, 10), (-23, 60), (-36, 10), (-72, 10)])),
            ConformanceCase(
                name: "3341-5", quantity: .integrated, expected: -23, below: 0.1, above: 0.1,
                signal: steps([(-26, 20), (-20, 20.1), (-26, 20)])),
            // 5.0 in the file order L, R, C, Ls, Rs.
            ConformanceCase(
                name: "3341-6", quantity: .integrated, expected: -23, below: 0.1, above: 0.1, channels: 5,
                signal: { tones([([-28, -28, -24, -30, -30], 20)]) }),
            ConformanceCase(name: "3341-7", quantity: .integrated, expected: -23, below: 0.1, above: 0.1),
            ConformanceCase(name: "3341-8", quantity: .integrated, expected: -23, below: 0.1, above: 0.1),
            ConformanceCase(
                name: "3341-9", quantity: .steadyShortTerm, expected: -23, below: 0.1, above: 0.1,
                signal: steps(Array(repeating: burst, count: 5).flatMap { $0 })),
        ]
        for (number, phase) in zip(15..., [0.0, 45, 60, 67.5]) {
            result.append(ConformanceCase(
                name: "3341-\(number)", quantity: .truePeak, expected: -6, below: 0.4, above: 0.2,
                signal: { sine(amplitude: 0.5, period: 4, phaseDegrees: phase) }))
        }
        result.append(ConformanceCase(
            name: "3341-19", quantity: .truePeak, expected: 3, below: 0.4, above: 0.2,
            signal: { sine(amplitude: 1.41, period: 4, phaseDegrees: 45) }))
        for offset in 0..<4 {
            result.append(ConformanceCase(
                name: "3341-\(20 + offset)*", quantity: .truePeak, expected: 0, below: 0.4, above: 0.2,
                signal: { sine(amplitude: 1, period: 6, phaseDegrees: 7.5 + 15 * Double(offset)) }))
        }
        let ranges: [([Double], Double)] = [
            ([-20, -30], 10), ([-20, -15], 5), ([-40, -20], 20), ([-50, -35, -20, -35, -50], 15),
        ]
        for (number, (levels, expected)) in zip(1..., ranges) {
            result.append(ConformanceCase(
                name: "3342-\(number)", quantity: .range, expected: expected, below: 1, above: 1,
                signal: steps(levels.map { ($0, 20) })))
        }
        result.append(ConformanceCase(name: "3342-5", quantity: .range, expected: 5, below: 1, above: 1))
        result.append(ConformanceCase(name: "3342-6", quantity: .range, expected: 15, below: 1, above: 1))
        return result
    }

    /// Interleaved 1 kHz sines, step after step with continuous phase; a level is each channel's
    /// sine peak in dBFS, as in Tech 3341 (a stereo −23 dBFS sine reads −23 LUFS).
    static func tones(_ steps: [(levels: [Double], seconds: Double)]) -> [Float] {
        let channels = steps.first?.levels.count ?? 2
        var samples: [Float] = []
        var frame = 0
        for step in steps {
            let frames = Int((step.seconds * Double(sampleRate)).rounded())
            let amplitudes = step.levels.map { pow(10, $0 / 20) }
            samples.reserveCapacity(samples.count + frames * channels)
            for index in frame..<(frame + frames) {
                let value = sin(2 * Double.pi * 1_000 * Double(index) / Double(sampleRate))
                for amplitude in amplitudes { samples.append(Float(amplitude * value)) }
            }
            frame += frames
        }
        return samples
    }

    /// One second of a stereo sine of `period` samples starting at `phaseDegrees`, rising and
    /// falling along 10 ms raised cosines: a sine switched on at full amplitude is a step, whose
    /// band-limited reconstruction really does overshoot the crest.
    static func sine(amplitude: Double, period: Double, phaseDegrees: Double) -> [Float] {
        let frames = sampleRate
        let fade = 480
        var samples = [Float](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let edge = min(frame, frames - 1 - frame)
            let gain = edge < fade ? 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(fade)) : 1
            let value = Float(gain * amplitude * sin(2 * Double.pi * Double(frame) / period + phaseDegrees * Double.pi / 180))
            samples[2 * frame] = value
            samples[2 * frame + 1] = value
        }
        return samples
    }

    /// Our reading of `testCase` from `samples`.
    private static func measureOurs(_ samples: [Float], _ testCase: ConformanceCase) -> Double {
        var loudness = LoudnessMeter(channels: testCase.channels, sampleRate: sampleRate)
        var truePeak = TruePeakMeter(channels: testCase.channels, sampleRate: sampleRate)
        var worstShortTerm: Double?
        forEachBuffer(samples, channels: testCase.channels) { buffer in
            loudness.consume(buffer)
            truePeak.consume(buffer)
            if testCase.quantity == .steadyShortTerm, loudness.consumedFrames >= 3 * sampleRate,
                let reading = loudness.shortTermLoudness
            {
                worstShortTerm = farther(reading, than: worstShortTerm, from: testCase.expected)
            }
        }
        switch testCase.quantity {
        case .integrated: return loudness.integratedLoudness ?? -.infinity
        case .steadyShortTerm: return worstShortTerm ?? .nan
        case .truePeak: return Double(truePeak.truePeakLevel)
        case .range: return loudness.loudnessRange ?? .nan
        }
    }

    /// libebur128's reading of `testCase` from `samples`.
    private static func measureTheirs(_ samples: [Float], _ testCase: ConformanceCase) -> Double {
        var handle = ebur128_init(UInt32(testCase.channels), UInt(sampleRate), mode)
        guard let state = handle else {
            printToStandardError("voicememo-bench ebur128: ebur128_init failed")
            exit(1)
        }
        defer { ebur128_destroy(&handle) }
        if testCase.channels == 5 {
            // libebur128's default map is L, R, C, unused (LFE), Ls, Rs.
            _ = ebur128_set_channel(state, 3, Int32(EBUR128_LEFT_SURROUND.rawValue))
            _ = ebur128_set_channel(state, 4, Int32(EBUR128_RIGHT_SURROUND.rawValue))
        }
        var worstShortTerm: Double?
        var consumed = 0
        forEachBuffer(samples, channels: testCase.channels) { buffer in
            let frames = buffer.count / testCase.channels
            _ = ebur128_add_frames_float(state, buffer.baseAddress, frames)
            consumed += frames
            var reading = 0.0
            if testCase.quantity == .steadyShortTerm, consumed >= 3 * sampleRate,
                ebur128_loudness_shortterm(state, &reading) == Int32(EBUR128_SUCCESS.rawValue)
            {
                worstShortTerm = farther(reading, than: worstShortTerm, from: testCase.expected)
            }
        }
        var value = 0.0
        switch testCase.quantity {
        case .integrated:
            _ = ebur128_loudness_global(state, &value)
        case .steadyShortTerm:
            value = worstShortTerm ?? .nan
        case .truePeak:
            value = 20 * log10(largestTruePeak(state, channels: testCase.channels))
        case .range:
            _ = ebur128_loudness_range(state, &value)
        }
        return value
    }

    /// Whichever of `reading` and `worst` lies farther from `expected`.
    private static func farther(_ reading: Double, than worst: Double?, from expected: Double) -> Double {
        guard let worst else { return reading }
        return abs(reading - expected) > abs(worst - expected) ? reading : worst
    }

    /// The largest true peak of any channel, as an amplitude.
    private static func largestTruePeak(_ state: UnsafeMutablePointer<ebur128_state>, channels: Int) -> Double {
        var largest = 0.0
        for channel in 0..<channels {
            var peak = 0.0
            _ = ebur128_true_peak(state, UInt32(channel), &peak)
            largest = max(largest, peak)
        }
        return largest
    }

    private static func forEachBuffer<Sample>(
        _ samples: [Sample], channels: Int, _ body: (UnsafeBufferPointer<Sample>) -> Void
    ) {
        samples.withUnsafeBufferPointer { all in
            let step = bufferFrames * channels
            var start = 0
            while start < all.count {
                body(UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + step)]))
                start += step
            }
        }
    }

    // MARK: - CPU

    /// One hour's CPU seconds and figures, per meter.
    struct Round {
        var loudness = 0.0
        var truePeak = 0.0
        var theirs = 0.0
        /// libebur128 with `EBUR128_MODE_I | EBUR128_MODE_LRA` alone: the same work as `loudness`.
        var theirLoudness = 0.0
        var ours: Double { loudness + truePeak }
        var oursFigures = ""
        var theirsFigures = ""
    }

    /// Times both over `rounds` memos of `seconds`; prints the figures and returns the ratio of
    /// the medians (ours ÷ libebur128's).
    private func cpu() -> (ratio: Double, ours: Double, theirs: Double) {
        print("CPU: I + LRA + true peak of \(seconds) s of 48 kHz stereo Int16 (speech-like pink noise, seeded),"
            + " 100 ms buffers, both fed each block in turn, \(Self.rounds) rounds, medians")
        var rounds: [Round] = []
        for _ in 0..<Self.rounds {
            rounds.append(measureMemo())
        }
        func median(_ key: (Round) -> Double) -> Double {
            let values = rounds.map(key).sorted()
            return values[values.count / 2]
        }
        let ours = median(\.ours)
        let theirs = median(\.theirs)
        let length = Double(seconds)
        func row(_ name: String, _ cpu: Double, _ all: [Double]) -> String {
            name.padding(to: 30) + (fixed(cpu, decimals: 3) + " s").leftPadding(to: 9)
                + (fixed(length / cpu, decimals: 0) + "× real time").leftPadding(to: 18)
                + "   rounds " + all.map { fixed($0, decimals: 3) }.joined(separator: ", ")
        }
        print(row("ours (LoudnessMeter)", median(\.loudness), rounds.map(\.loudness)))
        print(row("ours (TruePeakMeter)", median(\.truePeak), rounds.map(\.truePeak)))
        print(row("ours, both", ours, rounds.map(\.ours)))
        print(row("libebur128 (I|LRA|TRUE_PEAK)", theirs, rounds.map(\.theirs)))
        print(row("libebur128 (I|LRA alone)", median(\.theirLoudness), rounds.map(\.theirLoudness)))
        let ratio = ours / theirs
        print("ours ÷ libebur128: \(fixed(ratio, decimals: 2))× the CPU time; loudness alone "
            + "\(fixed(median(\.loudness) / median(\.theirLoudness), decimals: 2))×")
        print("figures  ours: \(rounds.last?.oursFigures ?? "")")
        print("   libebur128: \(rounds.last?.theirsFigures ?? "")")
        return (ratio, ours, theirs)
    }

    /// One memo of `seconds`, made block by block, through both meters.
    private func measureMemo() -> Round {
        var memo = SpeechLikeMemo(seed: 0x5EED_CAFE)
        let block = UnsafeMutableBufferPointer<Int16>.allocate(capacity: Self.bufferFrames * 2)
        defer { block.deallocate() }
        var round = Round()
        var loudness = LoudnessMeter(channels: 2, sampleRate: Self.sampleRate)
        var truePeak = TruePeakMeter(channels: 2, sampleRate: Self.sampleRate)
        var handle = ebur128_init(2, UInt(Self.sampleRate), Self.mode)
        guard let state = handle else {
            printToStandardError("voicememo-bench ebur128: ebur128_init failed")
            exit(1)
        }
        defer { ebur128_destroy(&handle) }
        let loudnessMode = Int32(bitPattern: EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue)
        var loudnessHandle = ebur128_init(2, UInt(Self.sampleRate), loudnessMode)
        guard let loudnessState = loudnessHandle else {
            printToStandardError("voicememo-bench ebur128: ebur128_init failed")
            exit(1)
        }
        defer { ebur128_destroy(&loudnessHandle) }
        let blocks = seconds * Self.sampleRate / Self.bufferFrames
        for index in 0..<blocks {
            memo.fill(block)
            let samples = UnsafeBufferPointer(block)
            // Alternate who goes first, so neither always finds the block in the cache second.
            if index % 2 == 0 {
                round.loudness += Self.cpuSeconds { loudness.consume(samples) }
                round.truePeak += Self.cpuSeconds { truePeak.consume(samples) }
                round.theirs += Self.cpuSeconds { _ = ebur128_add_frames_short(state, samples.baseAddress, Self.bufferFrames) }
                round.theirLoudness += Self.cpuSeconds {
                    _ = ebur128_add_frames_short(loudnessState, samples.baseAddress, Self.bufferFrames)
                }
            } else {
                round.theirLoudness += Self.cpuSeconds {
                    _ = ebur128_add_frames_short(loudnessState, samples.baseAddress, Self.bufferFrames)
                }
                round.theirs += Self.cpuSeconds { _ = ebur128_add_frames_short(state, samples.baseAddress, Self.bufferFrames) }
                round.truePeak += Self.cpuSeconds { truePeak.consume(samples) }
                round.loudness += Self.cpuSeconds { loudness.consume(samples) }
            }
        }
        var integrated: Double?, range: Double?, peak = 0.0
        round.loudness += Self.cpuSeconds {
            integrated = loudness.integratedLoudness
            range = loudness.loudnessRange
        }
        round.truePeak += Self.cpuSeconds { peak = Double(truePeak.truePeakLevel) }
        var theirIntegrated = 0.0, theirRange = 0.0, theirPeak = 0.0
        round.theirs += Self.cpuSeconds {
            _ = ebur128_loudness_global(state, &theirIntegrated)
            _ = ebur128_loudness_range(state, &theirRange)
            theirPeak = Self.largestTruePeak(state, channels: 2)
        }
        var check = 0.0
        round.theirLoudness += Self.cpuSeconds {
            _ = ebur128_loudness_global(loudnessState, &check)
            _ = ebur128_loudness_range(loudnessState, &check)
        }
        round.oursFigures = "I \(fixed(integrated ?? -.infinity, decimals: 2)) LUFS, LRA \(fixed(range ?? .nan, decimals: 2)) LU, "
            + "TP \(fixed(peak, decimals: 2)) dBTP"
        round.theirsFigures = "I \(fixed(theirIntegrated, decimals: 2)) LUFS, LRA \(fixed(theirRange, decimals: 2)) LU, "
            + "TP \(fixed(20 * log10(theirPeak), decimals: 2)) dBTP"
        return round
    }

    /// The calling thread's user + system time spent in `work`, in seconds.
    private static func cpuSeconds(_ work: () -> Void) -> Double {
        let start = threadTime()
        work()
        return threadTime() - start
    }

    /// The thread's CPU clock: its user + system time, to the nanosecond (`getrusage`'s
    /// `RUSAGE_THREAD` sum, which Glibc's Swift overlay does not declare).
    private static func threadTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A memo's stand-in for the CPU figures, made block by block from a seed: pink noise (Paul
/// Kellet's filter over white noise) shaped into talk spurts of 3–16 syllables at 3–6 a second
/// (each a sin² swell), each spurt at its own level (−6…+6 dB around ≈ −23 dBFS), with pauses
/// of 0.2–1.5 s between them; under everything room noise at ≈ −60 dBFS, independent per
/// channel. The right channel is the left 3 dB down.
struct SpeechLikeMemo {
    private var random: UInt64
    private var pink: (Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0)
    private var talking = false
    private var framesLeft = 0
    private var syllableFrames = 1
    private var frameInSyllable = 0
    private var gain = 0.0
    private var envelope = 0.0

    init(seed: UInt64) {
        random = seed
    }

    /// Fills `block` with the next interleaved stereo frames.
    mutating func fill(_ block: UnsafeMutableBufferPointer<Int16>) {
        for frame in 0..<(block.count / 2) {
            if framesLeft == 0 { startPart() }
            if frameInSyllable % 48 == 0 {
                let phase = Double.pi * Double(frameInSyllable) / Double(syllableFrames)
                envelope = talking ? gain * sin(phase) * sin(phase) : 0
            }
            frameInSyllable += 1
            if frameInSyllable == syllableFrames { frameInSyllable = 0 }
            framesLeft -= 1
            let white = uniform() * 2 - 1
            pink.0 = 0.99886 * pink.0 + white * 0.0555179
            pink.1 = 0.99332 * pink.1 + white * 0.0750759
            pink.2 = 0.96900 * pink.2 + white * 0.1538520
            pink.3 = 0.86650 * pink.3 + white * 0.3104856
            pink.4 = 0.55000 * pink.4 + white * 0.5329522
            pink.5 = -0.7616 * pink.5 - white * 0.0168980
            let voice = (pink.0 + pink.1 + pink.2 + pink.3 + pink.4 + pink.5 + pink.6 + white * 0.5362) * envelope
            pink.6 = white * 0.115926
            let room = 0.0017
            block[2 * frame] = Self.int16(voice + room * (uniform() * 2 - 1))
            block[2 * frame + 1] = Self.int16(0.708 * voice + room * (uniform() * 2 - 1))
        }
    }

    /// Starts a talk spurt after a pause, or a pause after a spurt.
    private mutating func startPart() {
        talking.toggle()
        frameInSyllable = 0
        if talking {
            let perSecond = 3 + 3 * uniform()
            syllableFrames = Int(48_000 / perSecond)
            framesLeft = syllableFrames * (3 + Int(uniform() * 14))
            // At 0 dB a syllable's crest is ≈ −23 dBFS RMS (the filter's output has ≈ 1.75 times
            // the RMS of a full-scale uniform input's range).
            gain = 0.04 * pow(10, (uniform() * 12 - 6) / 20)
        } else {
            syllableFrames = 48
            framesLeft = Int(48_000 * (0.2 + 1.3 * uniform()))
        }
    }

    /// A uniform value in [0, 1) (xorshift64*).
    private mutating func uniform() -> Double {
        random ^= random >> 12
        random ^= random << 25
        random ^= random >> 27
        return Double((random &* 2_685_821_657_736_338_717) >> 11) * 0x1p-53
    }

    private static func int16(_ value: Double) -> Int16 {
        Int16(max(-32_768, min(32_767, (value * 32_768).rounded())))
    }
}
