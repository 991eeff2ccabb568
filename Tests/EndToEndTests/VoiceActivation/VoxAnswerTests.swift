import Foundation
import TestSupport
import Testing

/// `voicememo record --vox --vox-silence 2s` on one-word answers ("Yes.", "Okay.", "No.",
/// espeak-ng) between non-speech events (a click train, a door's thump, typing, a cough, a
/// burst of loud noise, a steady tone) in seeded rooms (`voicememo-bench answers`), played in
/// unpaced: one memo per word, none for an event.
@Suite struct VoxAnswerTests {
    static let rate = 48_000

    struct Sound {
        var name: String
        var isWord: Bool
        var onset: Int
        var end: Int
    }

    /// Writes `answers.wav` and returns its sounds in order.
    static func makeRoom(_ noise: String, dBFS: Int, seed: Int, in sandbox: VoiceMemoSandbox) throws -> [Sound] {
        let outcome = try sandbox.shell("voicememo-bench answers \(noise) \(dBFS) \(seed) answers.wav")
        try #require(outcome.status == 0, "making the room failed: \(outcome)")
        let sounds = outcome.standardOutput.split(separator: "\n").compactMap { line -> Sound? in
            let fields = line.split(separator: " ")
            guard fields.count == 4, let onset = Int(fields[2]), let end = Int(fields[3]) else { return nil }
            return Sound(name: String(fields[1]), isWord: fields[0] == "word", onset: onset, end: end)
        }
        try #require(sounds.filter(\.isWord).count == 3, "\(outcome)")
        return sounds
    }

    @Test(arguments: [("white", -70, 1), ("pink", -55, 2), ("brown", -49, 3), ("fan", -46, 4), ("hum", -43, 5), ("babble", -46, 6)])
    func eachWordMakesOneMemoAndNoEventMakesAny(noise: String, dBFS: Int, seed: Int) throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let sounds = try Self.makeRoom(noise, dBFS: dBFS, seed: seed, in: sandbox)
        let room = try TestSignals.readInt16(sandbox.file("answers.wav")).samples
        let outcome = try sandbox.run(
            "record", "--vox", "--vox-silence", "2s", "--source", "file:" + sandbox.file("answers.wav"), "--format", "wav",
            "--json", "--no-transcribe")
        #expect(outcome.status == 0, "\(outcome)")
        let memos = try outcome.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let takes = try memos.map { memo -> Range<Int> in
            let samples = try TestSignals.readInt16(try #require(memo["path"] as? String)).samples
            let start = try #require(VoxRoomTests.offset(of: samples, in: room))
            return start..<start + samples.count
        }
        for sound in sounds {
            let holding = takes.filter { $0.lowerBound < sound.end && sound.onset < $0.upperBound }
            if sound.isWord {
                #expect(holding.count == 1, "\(sound.name) in \(noise) at \(dBFS) dBFS: \(holding.count) memos")
                guard let take = holding.first else { continue }
                let endError = Double(take.upperBound - sound.end) / Double(Self.rate) - 2.0
                print("vox-answer: \(noise) \(dBFS) dBFS \(sound.name): starts \(Double(sound.onset - take.lowerBound) / Double(Self.rate)) s before the onset, ends \(endError) s after the word + 2.0 s")
                #expect(take.lowerBound <= sound.onset, "\(sound.name): the onset is kept")
                #expect(endError >= -0.05 && endError <= 0.3, "\(sound.name): ends 2.0 s +0.3/-0.05 after the word: \(endError)")
            } else {
                #expect(holding.isEmpty, "\(sound.name) in \(noise) at \(dBFS) dBFS made a memo")
            }
        }
        #expect(memos.count == 3, "\(noise) at \(dBFS) dBFS: \(outcome)")
    }

    /// The level alone (`--vox-level-only`) keeps the loud noise and the tone and drops every
    /// one-word answer (its 0.5 s minimum counts from the trigger): what the speech detector is for.
    @Test func byLevelAloneTheToneAndTheNoiseMakeMemosAndTheWordsNone() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let sounds = try Self.makeRoom("white", dBFS: -70, seed: 1, in: sandbox)
        let room = try TestSignals.readInt16(sandbox.file("answers.wav")).samples
        let outcome = try sandbox.run(
            "record", "--vox", "--vox-level-only", "--vox-silence", "2s", "--source", "file:" + sandbox.file("answers.wav"),
            "--format", "wav", "--json", "--no-transcribe")
        #expect(outcome.status == 0, "\(outcome)")
        let takes = try outcome.standardOutput.split(separator: "\n").map { line -> Range<Int> in
            let memo = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let samples = try TestSignals.readInt16(try #require(memo["path"] as? String)).samples
            let start = try #require(VoxRoomTests.offset(of: samples, in: room))
            return start..<start + samples.count
        }
        func memos(for name: String) -> Int {
            guard let sound = sounds.first(where: { $0.name == name }) else { return -1 }
            return takes.filter { $0.lowerBound < sound.end && sound.onset < $0.upperBound }.count
        }
        #expect(memos(for: "noise") == 1 && memos(for: "tone") == 1, "\(outcome)")
        #expect(memos(for: "Yes.") == 0 && memos(for: "Okay.") == 0 && memos(for: "No.") == 0, "\(outcome)")
    }
}
