import Foundation
import SoundFiles

/// Voice activation in synthetic rooms: for each noise (`RoomSynthesis.Noise`) at −70, −55,
/// −49, −46 and −43 dBFS RMS, two rooms — three phrases (`RoomSynthesis`), and three one-word
/// answers between six non-speech events (`AnswerSynthesis`) — each recorded by
/// `voicememo record --vox --vox-silence 2s` listening for speech (the default), by the level
/// alone (`--vox-level-only`), and cut by `sox … silence 1 0.05 -40d 1 2.0 -40d : newfile : restart`.
///
/// Per sound: the start error (onset − the take's first frame: positive means the onset is in
/// the take, with that much before it) and the end error (the take's end − the sound's end −
/// 2.0 s). The goal, in every room at least 3 dB under the −40 dB threshold: one memo per
/// phrase and per word, none holding a non-speech event, every onset kept, every end within
/// +0.3/−0.05 s.
struct VoxBenchmark {
    static let levels: [Double] = [-70, -55, -49, -46, -43]
    /// The noises to measure (`voicememo-bench vox [NOISE…]`; all of them by default).
    var noises: [RoomSynthesis.Noise] = RoomSynthesis.Noise.allCases

    struct Take {
        var start: Int
        var end: Int
    }

    /// A sound in a room: a phrase or a word (speech) or an event.
    struct Sound {
        var onset: Int
        var end: Int
        var isSpeech: Bool
    }

    /// What one way of cutting made of one room's sounds.
    struct Outcome {
        /// Speech sounds held by exactly one take, of all speech sounds.
        var kept = 0
        var speech = 0
        /// Events any take holds, of all events.
        var eventsTaken = 0
        var events = 0
        var starts: [Double] = []
        var ends: [Double] = []
        /// Every speech sound in one take, onset kept, end within +0.3/−0.05 s, no event taken.
        var meetsGoal = true

        mutating func add(_ other: Outcome) {
            kept += other.kept
            speech += other.speech
            eventsTaken += other.eventsTaken
            events += other.events
            starts += other.starts
            ends += other.ends
            meetsGoal = meetsGoal && other.meetsGoal
        }

        var text: String {
            let range: ([Double]) -> String = { values in
                guard let low = values.min(), let high = values.max() else { return "–" }
                return String(format: "%+.2f…%+.2f", low, high)
            }
            return "\(kept)/\(speech) | \(eventsTaken)/\(events) | \(range(starts)) | \(range(ends))"
        }
    }

    func run() {
        let work = NSTemporaryDirectory() + "voicememo-bench-vox-\(getpid())"
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let voicememo = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("voicememo").path
        let spoken: [[Float]]
        let words: [[Float]]
        do {
            spoken = try RoomSynthesis.spokenPhrases(in: work)
            words = try AnswerSynthesis.spokenWords(in: work)
        } catch {
            print("vox: \(error)")
            return
        }
        let columns = "speech kept | events with a memo | start error (s) | end error (s)"
        print("| noise | dBFS RMS | speech detector: \(columns) | level only: \(columns) | sox: \(columns) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        var misses: [String] = []
        var levelOnlyMeets = 0
        var rows = 0
        for noise in noises {
            for level in Self.levels {
                do {
                    var ours = Outcome()
                    var levelOnly = Outcome()
                    var sox = Outcome()
                    let phrases = RoomSynthesis.make(noise: noise, rmsDBFS: level, seed: 1, phrases: spoken)
                    let answers = AnswerSynthesis.make(noise: noise, rmsDBFS: level, seed: 1, words: words)
                    let rooms: [([Int16], [Sound])] = [
                        (phrases.samples, phrases.phrases.map { Sound(onset: $0.onset, end: $0.end, isSpeech: true) }),
                        (answers.samples, answers.marks.map { Sound(onset: $0.onset, end: $0.end, isSpeech: $0.isWord) }),
                    ]
                    for (index, (samples, sounds)) in rooms.enumerated() {
                        let path = work + "/room-\(noise.rawValue)\(Int(level))-\(index).wav"
                        try RoomSynthesis.write(samples, to: path)
                        ours.add(Self.judge(try voicememoTakes(voicememo, room: path, samples: samples, work: work), sounds))
                        levelOnly.add(Self.judge(
                            try voicememoTakes(voicememo, room: path, samples: samples, work: work, extra: ["--vox-level-only"]),
                            sounds))
                        sox.add(Self.judge(try soxTakes(room: path, samples: samples, work: work), sounds))
                    }
                    print("| \(noise.rawValue) | \(Int(level)) | \(ours.text) | \(levelOnly.text) | \(sox.text) |")
                    rows += 1
                    if levelOnly.meetsGoal { levelOnlyMeets += 1 }
                    if !ours.meetsGoal { misses.append("\(noise.rawValue) \(Int(level))") }
                } catch {
                    print("| \(noise.rawValue) | \(Int(level)) | failed: \(error) | | | | | | | | | | | |")
                    misses.append("\(noise.rawValue) \(Int(level))")
                }
            }
        }
        print("")
        print("level only meets the goal in \(levelOnlyMeets) of \(rows) rooms")
        print(misses.isEmpty ? "PASS: one memo per phrase and word, none for an event, every onset kept, every end within +0.3/-0.05 s of 2.0 s, in every room 3 dB or more under the threshold"
              : "MISS: \(misses.joined(separator: ", "))")
    }

    /// What `takes` made of `sounds`: each speech sound against the takes that hold it (start
    /// and end errors from the first), each event against any take.
    static func judge(_ takes: [Take], _ sounds: [Sound]) -> Outcome {
        var outcome = Outcome()
        let rate = Double(RoomSynthesis.rate)
        for sound in sounds {
            let holding = takes.filter { $0.start < sound.end && sound.onset < $0.end }
            guard sound.isSpeech else {
                outcome.events += 1
                if !holding.isEmpty {
                    outcome.eventsTaken += 1
                    outcome.meetsGoal = false
                }
                continue
            }
            outcome.speech += 1
            if holding.count == 1 { outcome.kept += 1 } else { outcome.meetsGoal = false }
            guard let take = holding.first else { continue }
            let start = Double(sound.onset - take.start) / rate
            let end = Double(take.end - sound.end) / rate - 2.0
            outcome.starts.append(start)
            outcome.ends.append(end)
            if start < 0 || end < -0.05 || end > 0.3 { outcome.meetsGoal = false }
        }
        return outcome
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
            voicememo, ["record", "--vox", "--vox-silence", "2s", "--source", "file:" + room, "--format", "wav", "--json", "--no-transcribe"] + extra,
            environment: environment, output: output), result.status == 0
        else { throw RoomSynthesis.Failure.tool("voicememo record --vox failed") }
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").filter { !$0.isEmpty }
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
