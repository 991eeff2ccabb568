import Foundation
import Metering

/// `voicememo-bench statistics`: what a memo's figures (sample and true peak, loudness, LRA,
/// clips, and the peak envelope a waveform is drawn from) cost, in CPU seconds per 10 minutes of 48 kHz stereo 16-bit audio, and
/// `voicememo analyze` against `ffmpeg -af ebur128=peak=true` on the same files, side by side.
///
/// The signals: the record benchmark's seeded noise (what `voicememo-bench record` captures, so
/// the figure the issue quotes), spoken phrases (espeak-ng) in a quiet room with pauses, a
/// 1 kHz tone at −12 dBFS, and the two tones plus noise of `loudness`. The in-process rows feed
/// `ProgrammeMeter` (and each of its meters alone: true peak, loudness, envelope) in 4,800-frame buffers, as the writer
/// thread does, and take the thread's CPU time; the command rows take the child's user + system
/// time from `wait4`. Rounds are interleaved; figures are medians.
/// `VOICEMEMO_BENCH_BEFORE=/path/to/voicememo` adds that binary's `analyze` as a column.
struct StatisticsBenchmark {
    static let sampleRate = 48_000
    static let channels = 2
    static let bufferFrames = 4_800
    /// `analyze` must cost at most this share of ffmpeg's CPU time.
    static let analyzeGoal = 0.2
    /// Statistics and envelope (the writer thread's measuring) must cost at most this many CPU
    /// seconds per 10 minutes.
    static let measuringGoal = 0.5

    let seconds: Int
    let rounds = 3

    /// `VOICEMEMO_BENCH_STATISTICS_SECONDS` (default 600: 10 minutes per signal).
    static func secondsFromEnvironment() -> Int {
        ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_STATISTICS_SECONDS"].flatMap { Int($0) }.map { max($0, 10) } ?? 600
    }

    struct Signal {
        let name: String
        let samples: [Int16]
    }

    func run() {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-statistics-\(getpid())")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let before = ProcessInfo.processInfo.environment["VOICEMEMO_BENCH_BEFORE"]
        let ffmpeg = RoomSynthesis.which("ffmpeg")
        if ffmpeg == nil { print("(ffmpeg is not installed: apt-get install ffmpeg; its column is left out)") }
        print("statistics: \(seconds) s of 48 kHz stereo Int16 per signal, \(rounds) rounds interleaved, medians;"
            + " CPU s scaled to 10 min")
        var header = "  " + "signal".padding(to: 10) + "true peak".leftPadding(to: 11) + "loudness".leftPadding(to: 10)
            + "envelope".leftPadding(to: 10) + "all".leftPadding(to: 8) + "analyze".leftPadding(to: 10)
        if before != nil { header += "before".leftPadding(to: 9) }
        if ffmpeg != nil { header += "ffmpeg".leftPadding(to: 9) + "÷ ffmpeg".leftPadding(to: 10) }
        var lines = [header]
        var worstRatio = 0.0
        var worstMeasuring = 0.0
        var figureLines: [String] = []
        var checksum = 0.0
        for signal in signals(work: work.path) {
            let path = work.appendingPathComponent("\(signal.name).wav").path
            do {
                try RoomSynthesis.write(signal.samples, to: path, channels: Self.channels)
            } catch {
                printToStandardError("voicememo-bench statistics: cannot write \(path): \(error)")
                exit(1)
            }
            var truePeak: [Double] = [], loudness: [Double] = [], envelope: [Double] = [], both: [Double] = []
            var ours: [Double] = [], old: [Double] = [], theirs: [Double] = []
            for _ in 0..<rounds {
                truePeak.append(Self.threadCPU(&checksum) { Self.feed(signal.samples, truePeakOnly: true) })
                loudness.append(Self.threadCPU(&checksum) { Self.feed(signal.samples, loudnessOnly: true) })
                envelope.append(Self.threadCPU(&checksum) { Self.feed(signal.samples, envelopeOnly: true) })
                both.append(Self.threadCPU(&checksum) { Self.feed(signal.samples) })
                ours.append(Self.command(voicememo, ["analyze", path, "--json"]))
                if let before { old.append(Self.command(before, ["analyze", path, "--json"])) }
                if let ffmpeg {
                    theirs.append(Self.command(
                        ffmpeg, ["-nostdin", "-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"]))
                }
            }
            let scale = 600 / Double(seconds)
            worstMeasuring = max(worstMeasuring, Self.median(both) * scale)
            var line = "  " + signal.name.padding(to: 10)
            for (values, width) in [(truePeak, 11), (loudness, 10), (envelope, 10), (both, 8), (ours, 10)] {
                line += fixed(Self.median(values) * scale, decimals: 3).leftPadding(to: width)
            }
            if before != nil { line += fixed(Self.median(old) * scale, decimals: 3).leftPadding(to: 9) }
            if ffmpeg != nil {
                let ratio = Self.median(ours) / Self.median(theirs)
                worstRatio = max(worstRatio, ratio)
                line += fixed(Self.median(theirs) * scale, decimals: 3).leftPadding(to: 9)
                line += (fixed(ratio, decimals: 3) + "×").leftPadding(to: 10)
                if before != nil { line += "  (before \(fixed(Self.median(old) / Self.median(theirs), decimals: 3))×)" }
            }
            lines.append(line)
            figureLines.append(figures(voicememo: voicememo, ffmpeg: ffmpeg, path: path, name: signal.name))
            print(lines.last ?? "")
        }
        print("")
        for line in lines { print(line) }
        let measuring = worstMeasuring <= Self.measuringGoal ? "PASS" : "MISS"
        print("goal: statistics + envelope ≤ \(fixed(Self.measuringGoal, decimals: 1)) CPU s per 10 min: \(measuring) (worst \(fixed(worstMeasuring, decimals: 3)))")
        if ffmpeg != nil {
            let verdict = worstRatio <= Self.analyzeGoal ? "PASS" : "MISS"
            print("goal: analyze ≤ \(fixed(Self.analyzeGoal, decimals: 1))× ffmpeg's CPU time: \(verdict) (worst \(fixed(worstRatio, decimals: 3))×)")
        }
        print("(checksum \(fixed(checksum, decimals: 3)))")
        print("figures (ours | ffmpeg ebur128: integrated LUFS, LRA LU, true peak dBTP):")
        for line in figureLines { print(line) }
    }

    /// The signals, 48 kHz stereo, `seconds` long each.
    private func signals(work: String) -> [Signal] {
        let frames = seconds * Self.sampleRate
        var result: [Signal] = []
        // The record benchmark's device noise (RecordBenchmark.writeNoise).
        var noise = [Int16](repeating: 0, count: frames * Self.channels)
        var state: UInt64 = 0x5EED
        for index in noise.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            noise[index] = Int16(truncatingIfNeeded: state >> 52)
        }
        result.append(Signal(name: "noise", samples: noise))
        if let spoken = try? RoomSynthesis.spokenPhrases(in: work) {
            let room = RoomSynthesis.make(noise: .pink, rmsDBFS: -60, seed: 7, phrases: spoken).samples
            var speech = [Int16](repeating: 0, count: frames * Self.channels)
            for frame in 0..<frames {
                let sample = room[frame % room.count]
                speech[2 * frame] = sample
                speech[2 * frame + 1] = Int16(Double(sample) * 0.7)
            }
            result.append(Signal(name: "speech", samples: speech))
        } else {
            print("(espeak-ng or sox missing: no speech signal)")
        }
        var tone = [Int16](repeating: 0, count: frames * Self.channels)
        let amplitude = 32767 * pow(10, -12.0 / 20)
        for frame in 0..<frames {
            let value = Int16((amplitude * sin(2 * Double.pi * 1000 * Double(frame) / Double(Self.sampleRate))).rounded())
            tone[2 * frame] = value
            tone[2 * frame + 1] = value
        }
        result.append(Signal(name: "tone", samples: tone))
        var tones = [Int16](repeating: 0, count: frames * Self.channels)
        tones.withUnsafeMutableBufferPointer { TestSignal.fill($0) }
        result.append(Signal(name: "two tones", samples: tones))
        return result
    }

    /// Feeds `samples` through the statistics meters in writer-sized buffers; returns a
    /// figure so the work cannot be optimised away.
    private static func feed(
        _ samples: [Int16], truePeakOnly: Bool = false, loudnessOnly: Bool = false, envelopeOnly: Bool = false
    ) -> Double {
        samples.withUnsafeBufferPointer { all in
            let step = bufferFrames * channels
            var programme = ProgrammeMeter(channels: channels, sampleRate: sampleRate)
            var truePeak = TruePeakMeter(channels: channels, sampleRate: sampleRate)
            var loudness = LoudnessMeter(channels: channels, sampleRate: sampleRate)
            var envelope = PeakEnvelope(channels: channels, sampleRate: sampleRate)
            var start = 0
            while start < all.count {
                let buffer = UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + step)])
                if truePeakOnly {
                    truePeak.consume(buffer)
                } else if loudnessOnly {
                    loudness.consume(buffer)
                } else if envelopeOnly {
                    envelope.consume(buffer)
                } else {
                    programme.consume(buffer)
                }
                start += step
            }
            if truePeakOnly { return Double(truePeak.truePeakLevel) }
            if loudnessOnly { return (loudness.integratedLoudness ?? 0) + (loudness.loudnessRange ?? 0) }
            if envelopeOnly { return Double(envelope.finished.peaks.reduce(0) { $0 + Int($1) }) }
            let statistics = programme.statistics
            return (statistics.truePeakDBTP ?? 0) + (statistics.loudnessLUFS ?? 0) + Double(statistics.clipCount)
        }
    }

    /// The calling thread's CPU time spent in `work`; its result goes into `checksum`.
    private static func threadCPU(_ checksum: inout Double, _ work: () -> Double) -> Double {
        let start = threadClock()
        checksum += work()
        return threadClock() - start
    }

    private static func threadClock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A child's CPU time (user + system).
    private static func command(_ path: String, _ arguments: [String]) -> Double {
        guard let result = ChildProcess.run(path, arguments, environment: ProcessInfo.processInfo.environment),
            result.status == 0
        else {
            printToStandardError("voicememo-bench statistics: \(path) \(arguments.joined(separator: " ")) failed")
            exit(1)
        }
        return result.cpuSeconds
    }

    private static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.sorted()[values.count / 2]
    }

    /// One line with our figures and ffmpeg's for the file, to see that both measure the same.
    private func figures(voicememo: String, ffmpeg: String?, path: String, name: String) -> String {
        let ours = Self.output(voicememo, ["analyze", path, "--json"])
        func value(_ key: String) -> String {
            guard let range = ours.range(of: "\"\(key)\":") else { return "?" }
            let rest = ours[range.upperBound...].drop { $0 == " " }
            let number = rest.prefix { $0 != "," && $0 != "}" && $0 != "\n" }
            return Double(number).map { fixed($0, decimals: 2) } ?? String(number)
        }
        var line = "  " + name.padding(to: 10) + "\(value("loudness_lufs")) \(value("lra")) \(value("true_peak_dbtp"))"
        if let ffmpeg {
            let text = Self.output(
                ffmpeg, ["-nostdin", "-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"],
                standardError: true)
            let summary = text.components(separatedBy: "Summary:").last ?? ""
            func field(_ label: String) -> String {
                guard let range = summary.range(of: label) else { return "?" }
                return String(summary[range.upperBound...].drop { $0 == " " }.prefix { $0 != " " && $0 != "\n" })
            }
            line += "  |  \(field("I:")) \(field("LRA:")) \(field("Peak:"))"
        }
        return line
    }

    /// What a command printed (standard output, or standard error).
    private static func output(_ path: String, _ arguments: [String], standardError: Bool = false) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        if standardError {
            process.standardError = pipe
            process.standardOutput = FileHandle.nullDevice
        } else {
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
        }
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
