import Foundation
import SoundFiles

/// A meeting (`--source pulse:MIC+pulse:DESKTOP.monitor`) recorded for `seconds` on a private
/// PulseAudio, beside two `parecord` processes of the same two sources, all three at once: the
/// CPU (user + system) of each and their ratio, and how far apart a click both inputs hear (a
/// click a second played into the desktop's sink, whose monitor the microphone remaps) is in
/// the memo's two channels at the start and at the end, and so the drift per second.
struct MeetingBenchmark {
    let seconds: Int

    /// `voicememo-bench meeting [SECONDS]` (60 when not given).
    static func command(_ arguments: [String]) -> Int32 {
        guard let seconds = secondsArgument(arguments, of: "meeting", minimum: 5) else { return 2 }
        return MeetingBenchmark(seconds: seconds).run() ? 0 : 1
    }

    private static let rate = 48_000

    func run() -> Bool {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("voicememo-bench-meeting-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let modules = [["module-remap-source", "master=desk.monitor", "source_name=mic"]]
        guard let (server, environment) = SoundServer.forBenchmark("meeting", in: work, rate: Self.rate, modules: modules) else {
            return false
        }
        defer { server.stop() }
        guard writeClicks(to: work + "/clicks.wav") else { return false }
        guard let player = SpawnedProcess.loopingPlayer(
            "meeting", file: work + "/clicks.wav", sink: "desk", environment: environment, log: work + "/paplay.log")
        else { return false }
        defer { player.stop() }

        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let commands: [(name: String, path: String, arguments: [String])] = [
            ("voicememo record meeting", voicememo,
             ["record", "--source", "pulse:mic+pulse:desk.monitor", "--duration", "\(seconds)s", "--format", "wav",
              "--encoding", "pcm16", "--rate", "\(Self.rate)", "--channels", "2", "--no-transcribe", "--title", "Bench"]),
            ("parecord mic", "/usr/bin/timeout", parecord("mic", to: work + "/mic.wav")),
            ("parecord desk.monitor", "/usr/bin/timeout", parecord("desk.monitor", to: work + "/desk.wav")),
        ]
        print("meeting: \(seconds) s of two PulseAudio sources at 48 kHz (a null sink's monitor, and the same monitor remapped), side by side")
        let finished = ChildProcess.runSideBySide(commands.map { ($0.path, $0.arguments) }, environment: environment)
        guard let ours = finished[0], ours.status == 0 else {
            printToStandardError("voicememo-bench meeting: voicememo record failed")
            return false
        }
        let theirs = finished[1...].compactMap { $0 }
        guard theirs.count == 2 else {
            printToStandardError("voicememo-bench meeting: parecord did not run")
            return false
        }
        let parecordCPU = theirs.reduce(0) { $0 + $1.cpuSeconds }
        print("  " + "command".padding(to: 28) + "CPU s".leftPadding(to: 9) + "wall s".leftPadding(to: 9))
        for (command, result) in zip(commands, finished) {
            guard let result else { continue }
            print("  " + command.name.padding(to: 28) + fixed(result.cpuSeconds, decimals: 3).leftPadding(to: 9)
                + fixed(result.wallSeconds, decimals: 1).leftPadding(to: 9))
        }
        print("  voicememo ÷ both parecords: \(fixed(ours.cpuSeconds / max(parecordCPU, 1e-9), decimals: 2))×")
        guard let memo = (try? FileManager.default.contentsOfDirectory(atPath: work + "/library"))?.first(where: { $0.hasSuffix(".wav") }),
            let offsets = Self.clickOffsets(in: work + "/library/" + memo), let first = offsets.first, let last = offsets.last
        else {
            printToStandardError("voicememo-bench meeting: no click found in both channels of the memo")
            return false
        }
        let span = Double(last.frame - first.frame) / Double(Self.rate)
        let drift = span > 0 ? Double(last.offset - first.offset) / span : 0
        print("  the click in the memo, second channel − first: \(first.offset) frames at \(fixed(Double(first.frame) / Double(Self.rate), decimals: 1)) s, "
            + "\(last.offset) at \(fixed(Double(last.frame) / Double(Self.rate), decimals: 1)) s (\(offsets.count) clicks, "
            + "\(offsets.map(\.offset).min() ?? 0) to \(offsets.map(\.offset).max() ?? 0)); drift \(fixed(drift, decimals: 3)) frames/s")
        let apart = offsets.filter { $0.offset != first.offset }
        print("  clicks whose offset is not the first's: \(apart.count)"
            + apart.prefix(20).map { " \($0.offset) at \(fixed(Double($0.frame) / Double(Self.rate), decimals: 1)) s" }.joined(separator: ","))
        print("goal: within 10 ms (480 frames) throughout: \(offsets.allSatisfy { abs($0.offset) <= 480 } ? "PASS" : "MISS")")
        print("goal: drift ≤ 1 frame/s: \(abs(drift) <= 1 ? "PASS" : "MISS")")
        return true
    }

    /// `timeout`'s arguments to run parecord on `source` for the meeting's length (its CPU is
    /// timeout's children's, which `wait4` reports).
    private func parecord(_ source: String, to path: String) -> [String] {
        ["-s", "TERM", "\(seconds)", "/usr/bin/parecord", "-d", source, "--rate=\(Self.rate)", "--channels=1", "--format=s16le",
         "--file-format=wav", path]
    }

    /// 10 s of mono 48 kHz: a 1 ms click at the start of each second.
    private func writeClicks(to path: String) -> Bool {
        let samples = (0..<(10 * Self.rate)).map { frame -> Int16 in frame % Self.rate < Self.rate / 1000 ? 20_000 : 0 }
        do {
            let writer = try SoundFileWriter(
                path: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: Self.rate, channels: 1))
            try samples.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                try writer.write(base, frames: samples.count, sampleFormat: .int16)
            }
            try writer.close()
            return true
        } catch {
            printToStandardError("voicememo-bench meeting: cannot write the clicks: \(error)")
            return false
        }
    }

    /// Each click's frame in the first channel and how many frames later the second channel
    /// has it (the first sample above a fifth of full scale after half a second without one).
    static func clickOffsets(in path: String) -> [(frame: Int, offset: Int)]? {
        guard let reader = try? SoundFileReader(path: path), reader.info.channels == 2 else { return nil }
        defer { reader.close() }
        var onsets: [[Int]] = [[], []]
        var chunk = [Int16](repeating: 0, count: 4096 * 2)
        var position = 0
        while true {
            let got = chunk.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return (try? reader.read(into: base, frames: 4096, as: .int16)) ?? 0
            }
            if got == 0 { break }
            for frame in 0..<got {
                for channel in 0..<2 where abs(Int(chunk[frame * 2 + channel])) > 6553 {
                    let at = position + frame
                    if let last = onsets[channel].last, at - last < rate / 2 { continue }
                    onsets[channel].append(at)
                }
            }
            position += got
        }
        var pairs: [(frame: Int, offset: Int)] = []
        for onset in onsets[0] {
            guard let nearest = onsets[1].min(by: { abs($0 - onset) < abs($1 - onset) }), abs(nearest - onset) < rate / 4 else { continue }
            pairs.append((onset, nearest - onset))
        }
        return pairs.isEmpty ? nil : pairs
    }
}
