import Foundation
import SoundFiles

/// Voice activation in synthetic rooms (`RoomSynthesis`): for each noise at −70, −60, −55 and
/// −52 dBFS RMS, `voicememo record --vox --vox-silence 2s` with default settings, beside
/// `sox … silence 1 0.05 -40d 1 2.0 -40d : newfile : restart` on the same file.
///
/// Per phrase: the start error (onset − the take's first frame: positive means the onset is in
/// the take, with that much before it) and the end error (the take's end − the phrase's end −
/// 2.0 s). The goal, for every room at least 12 dB under the −40 dB threshold: 3 memos, every
/// onset kept, every end within +0.3/−0.05 s.
struct VoxBenchmark {
    /// The goal's rooms, and one within the 10 dB margin (-46) to show what happens there.
    static let levels: [Double] = [-70, -60, -55, -52, -46]

    struct Take {
        var start: Int
        var end: Int
    }

    func run() {
        let work = NSTemporaryDirectory() + "voicememo-bench-vox-\(getpid())"
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let spoken: [[Float]]
        do {
            spoken = try RoomSynthesis.spokenPhrases(in: work)
        } catch {
            print("vox: \(error)")
            return
        }
        print("| noise | dBFS RMS | voicememo memos | start error (s) | end error (s) | --vox-calibrate 2s: memos | start | end | sox files | sox start error (s) | sox end error (s) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        var misses: [String] = []
        for noise in RoomSynthesis.Noise.allCases {
            for level in Self.levels {
                let room = RoomSynthesis.make(noise: noise, rmsDBFS: level, seed: 1, phrases: spoken)
                let path = work + "/room-\(noise.rawValue)\(Int(level)).wav"
                do {
                    try RoomSynthesis.write(room.samples, to: path)
                    let ours = try voicememoTakes(voicememo, room: path, samples: room.samples, work: work)
                    let calibrated = try voicememoTakes(
                        voicememo, room: path, samples: room.samples, work: work, extra: ["--vox-calibrate", "2s"])
                    let theirs = try soxTakes(room: path, samples: room.samples, work: work)
                    let (ourStart, ourEnd, ourOK) = Self.errors(ours, room.phrases)
                    let (calibratedStart, calibratedEnd, _) = Self.errors(calibrated, room.phrases)
                    let (soxStart, soxEnd, _) = Self.errors(theirs, room.phrases)
                    print("| \(noise.rawValue) | \(Int(level)) | \(ours.count) | \(ourStart) | \(ourEnd) | \(calibrated.count) | \(calibratedStart) | \(calibratedEnd) | \(theirs.count) | \(soxStart) | \(soxEnd) |")
                    if level <= -52, !(ourOK && ours.count == 3) { misses.append("\(noise.rawValue) \(Int(level))") }
                } catch {
                    print("| \(noise.rawValue) | \(Int(level)) | failed: \(error) | | | | | |")
                    misses.append("\(noise.rawValue) \(Int(level))")
                }
            }
        }
        print("")
        print(misses.isEmpty ? "PASS: 3 memos, every onset kept, every end within +0.3/-0.05 s of 2.0 s, in every room 12 dB or more under the threshold"
              : "MISS: \(misses.joined(separator: ", "))")
    }

    /// Each phrase's start and end error against the first take that overlaps it ("miss" when
    /// none does); whether all are within the goal.
    static func errors(_ takes: [Take], _ phrases: [RoomSynthesis.Phrase]) -> (String, String, Bool) {
        var starts: [String] = []
        var ends: [String] = []
        var good = true
        let rate = Double(RoomSynthesis.rate)
        for phrase in phrases {
            guard let take = takes.first(where: { $0.start < phrase.end && phrase.onset < $0.end }) else {
                starts.append("miss")
                ends.append("miss")
                good = false
                continue
            }
            let start = Double(phrase.onset - take.start) / rate
            let end = Double(take.end - phrase.end) / rate - 2.0
            starts.append(String(format: "%+.2f", start))
            ends.append(String(format: "%+.2f", end))
            if start < 0 || end < -0.05 || end > 0.3 { good = false }
        }
        return (starts.joined(separator: " "), ends.joined(separator: " "), good)
    }

    private func voicememoTakes(
        _ voicememo: String, room: String, samples: [Int16], work: String, extra: [String] = []
    ) throws -> [Take] {
        let home = work + "/home"
        try? FileManager.default.removeItem(atPath: home)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["VOICEMEMO_HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["VOICEMEMO_UNPACED"] = "1"
        let output = work + "/record.json"
        guard let result = ChildProcess.run(
            voicememo, ["record", "--vox", "--vox-silence", "2s", "--source", "file:" + room, "--format", "wav", "--json"] + extra,
            environment: environment, output: output), result.status == 0
        else { throw RoomSynthesis.Failure.tool("voicememo record --vox failed") }
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        return try lines.map { line in
            guard let memo = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = memo["path"] as? String
            else { throw RoomSynthesis.Failure.tool("record printed \(line)") }
            return try Self.locate(Self.readWAV(path), in: samples)
        }
    }

    private func soxTakes(room: String, samples: [Int16], work: String) throws -> [Take] {
        let directory = work + "/sox"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try RoomSynthesis.run("sox", ["-D", room, "-t", "raw", directory + "/take.raw", "silence", "1", "0.05", "-40d", "1", "2.0", "-40d", ":", "newfile", ":", "restart"])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        return try files.compactMap { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            let part = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            return part.isEmpty ? nil : try Self.locate(part, in: samples)
        }
    }

    static func readWAV(_ path: String) throws -> [Int16] {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        var samples: [Int16] = []
        var chunk = [Int16](repeating: 0, count: 4096 * reader.info.channels)
        while true {
            let got = try chunk.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 4096, as: .int16)
            }
            if got == 0 { break }
            samples += chunk[0..<got]
        }
        return samples
    }

    /// Where `part` lies in `whole`: both are the room's samples, bit for bit. The probe is
    /// the loudest 1024 samples of `part` (speech): a take's pre-roll of mains hum repeats
    /// every 20 ms and would match too early.
    static func locate(_ part: [Int16], in whole: [Int16]) throws -> Take {
        let length = min(1024, part.count)
        guard length > 0, whole.count >= part.count else { throw RoomSynthesis.Failure.tool("an empty take") }
        let loudest = part.indices.max { abs(Int(part[$0])) < abs(Int(part[$1])) } ?? 0
        let offset = max(0, min(loudest - length / 2, part.count - length))
        let probe = part[offset..<offset + length]
        guard let found = (offset...(whole.count - part.count + offset)).first(where: { start in
                whole[start] == probe.first && whole[start..<start + length].elementsEqual(probe)
            })
        else { throw RoomSynthesis.Failure.tool("a take is not part of the room") }
        return Take(start: found - offset, end: found - offset + part.count)
    }
}
