import Foundation
import Testing

/// `voicememo transcribe` and `search` through the binary, on memos made from
/// pocketsphinx-testdata's LibriVox clips (read speech with a reference transcription).
@Suite struct TranscriptionCommandTests {
    static let clips = "/usr/share/pocketsphinx/test/data/librivox/"
    static let dashwood = clips + "sense_and_sensibility_01_austen_64kb-0870.wav"
    static let youngMan = clips + "sense_and_sensibility_01_austen_64kb-0880.wav"
    static let dashwoodReference =
        "and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them"

    struct Words: Decodable {
        struct Word: Decodable {
            let word: String
            let start: Double
            let end: Double
        }
        let id: Int
        let words: [Word]
        let text: String
    }

    struct Hit: Decodable {
        let id: Int
        let title: String
        let path: String
        let time: Double
        let snippet: String
    }

    /// Two memos: one adopted as 48 kHz stereo FLAC, one recorded from a 48 kHz stereo file.
    static func library() throws -> (VoiceMemoSandbox, adopted: Int, recorded: Int) {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let made = try sandbox.shell(
            "sox \(dashwood) -r 48000 -c 2 \"$VOICEMEMO_HOME/dashwood.flac\" && "
                + "sox \(youngMan) -r 48000 -c 2 \(sandbox.file("young.wav"))")
        #expect(made.status == 0, "\(made)")
        let recorded = try sandbox.run(
            "record", "--source", "file:" + sandbox.file("young.wav"), "--duration", "2.99", "--title", "Young man",
            "--format", "flac")
        #expect(recorded.status == 0, "\(recorded)")
        let recordedID = try #require(Int(recorded.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let adopted = try #require(try sandbox.listedMemos().first { ($0["title"] as? String) == "dashwood" })
        return (sandbox, try #require(adopted["id"] as? Int), recordedID)
    }

    @Test func transcribesAndFindsMemosByTheirWords() throws {
        let (sandbox, adopted, recorded) = try Self.library()
        #expect(try sandbox.listedMemos().allSatisfy { ($0["transcript"] as? String) == "none" })

        let first = try sandbox.run("transcribe", String(adopted), "--json", timeout: .seconds(180))
        #expect(first.status == 0, "\(first)")
        let words = try JSONDecoder().decode(Words.self, from: Data(first.standardOutput.utf8))
        #expect(words.id == adopted)
        #expect(words.text == words.words.map(\.word).joined(separator: " "))
        var previousEnd = 0.0
        for word in words.words {
            #expect(word.start >= previousEnd - 0.0001 && word.end > word.start && word.end <= 7.1 + 0.0001, "\(word)")
            previousEnd = word.end
        }
        let reference = Self.dashwoodReference.split(separator: " ").map(String.init)
        let errors = Self.editDistance(reference, words.words.map(\.word))
        // The stock pocketsphinx_continuous makes 8 errors in these 22 words (WER 0.36).
        #expect(Double(errors) / Double(reference.count) <= 0.5, "\(words.text)")

        let text = try sandbox.run("transcribe", "Young", timeout: .seconds(180))
        #expect(text.status == 0, "\(text)")
        #expect(text.standardOutput.hasPrefix("00:00:00."), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("young man"), "\(text.standardOutput)")

        let states = Dictionary(uniqueKeysWithValues: try sandbox.listedMemos().map { ($0["id"] as? Int ?? 0, $0["transcript"] as? String) })
        #expect(states[adopted] == "complete" && states[recorded] == "complete", "\(states)")

        // A word both recognisers hear, said about 2.3 s into the memo.
        let leisure = try sandbox.run("search", "leisure", "--json")
        #expect(leisure.status == 0, "\(leisure)")
        let hits = try JSONDecoder().decode([Hit].self, from: Data(leisure.standardOutput.utf8))
        #expect(hits.map(\.id) == [adopted], "\(leisure.standardOutput)")
        if let hit = hits.first {
            #expect(hit.time > 1.5 && hit.time < 3.5, "\(hit)")
            #expect(hit.title == "dashwood" && hit.path.hasSuffix("/dashwood.flac") && hit.snippet.contains("leisure"))
        }
        let young = try sandbox.run("search", "YOUNG man")
        #expect(young.status == 0 && young.standardOutput.hasPrefix("\(recorded)  00:00:0"), "\(young)")
        let both = try sandbox.run("search", "he", "--json")
        // "he" is in the second clip; the first has "his", which is another word.
        #expect(try JSONDecoder().decode([Hit].self, from: Data(both.standardOutput.utf8)).map(\.id) == [recorded], "\(both)")
        let none = try sandbox.run("search", "elephant")
        #expect(none.status == 1 && none.standardOutput.isEmpty && none.standardError.contains("elephant"), "\(none)")

        // A stored transcript is printed again without transcribing (a missing model does not matter).
        try sandbox.writeConfig("transcribe.model = /nonexistent\n")
        let again = try sandbox.run("transcribe", String(adopted), "--json")
        #expect(again.status == 0 && again.standardOutput == first.standardOutput, "\(again)")
        let redo = try sandbox.run("transcribe", String(adopted), "--again")
        #expect(redo.status == 1 && redo.standardError.contains("pocketsphinx-en-us"), "\(redo)")
    }

    /// kill -9 mid-transcription keeps nothing half-made: the memo is still untranscribed, the
    /// index intact, and the next `transcribe` makes the whole transcript.
    @Test func killNineDuringTranscriptionLeavesNothingHalfDone() throws {
        let sandbox = try VoiceMemoSandbox()
        let log = sandbox.file("events.log")
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = log
        // 30 s of speech: the five clips twice, then again, as one 48 kHz stereo memo.
        let clips = (try FileManager.default.contentsOfDirectory(atPath: Self.clips)).filter { $0.hasSuffix(".wav") }.sorted()
        let sources = (clips + clips).map { Self.clips + $0 }.joined(separator: " ")
        let made = try sandbox.shell("sox \(sources) -r 48000 -c 2 \"$VOICEMEMO_HOME/long.flac\"")
        #expect(made.status == 0, "\(made)")
        let killed = try sandbox.shell("""
            voicememo transcribe long >/dev/null 2>&1 &
            pid=$!
            deadline=$((SECONDS + 60))
            until grep -q '^transcribed' \(log) 2>/dev/null; do
              [ $SECONDS -lt $deadline ] || { echo "no progress"; kill -9 $pid; exit 1; }
              sleep 0.01
            done
            kill -9 $pid
            wait $pid
            echo "status $?"
            """, timeout: .seconds(90))
        #expect(killed.standardOutput.contains("status 137"), "\(killed)")
        let progress = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(progress.allSatisfy { $0.hasPrefix("transcribed ") })
        #expect(try sandbox.listedMemos().first?["transcript"] as? String == "none")
        let integrity = try sandbox.shell("sqlite3 \"$VOICEMEMO_HOME/index.sqlite3\" 'PRAGMA integrity_check; SELECT count(*) FROM transcript_words;'")
        #expect(integrity.standardOutput == "ok\n0\n", "\(integrity)")

        let again = try sandbox.run("transcribe", "long", "--json", timeout: .seconds(300))
        #expect(again.status == 0, "\(again)")
        let words = try JSONDecoder().decode(Words.self, from: Data(again.standardOutput.utf8))
        #expect(words.words.count >= 100, "\(words.words.count) words")
        #expect((words.words.last?.end ?? 0) > 45, "the whole memo (49 s) is transcribed")
        #expect(try sandbox.listedMemos().first?["transcript"] as? String == "complete")
        let last = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").last
        #expect(last == "transcribed 1.0000" || last?.hasPrefix("transcribed 1.0000 ") == true, "\(String(describing: last))")
    }

    @Test func badInputIsNamed() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let recorded = try sandbox.run("record", "--source", "tone:440@-12", "--duration", "0.5")
        #expect(recorded.status == 0, "\(recorded)")
        let id = recorded.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)

        let missing = try sandbox.run("transcribe", "nothing-like-this")
        #expect(missing.status == 1 && missing.standardError.contains("nothing-like-this"), "\(missing)")
        #expect(try sandbox.run("transcribe").status == 2)
        #expect(try sandbox.run("transcribe", id, "--bogus").status == 2)
        #expect(try sandbox.run("search").status == 2)
        let punctuation = try sandbox.run("search", "?!")
        #expect(punctuation.status == 2 && punctuation.standardError.contains("no letters or digits"), "\(punctuation)")
        #expect(try sandbox.run("search", "x", "--bogus").status == 2)
        // No match exits 1, as grep does, and the help says so.
        let nothing = try sandbox.run("search", "elephant")
        #expect(nothing.status == 1 && nothing.standardOutput.isEmpty, "\(nothing)")
        #expect(nothing.standardError.contains("no memo's title or transcript holds \"elephant\" (1 memo has no transcript yet"), "\(nothing)")
        let nothingJSON = try sandbox.run("search", "elephant", "--json")
        #expect(nothingJSON.status == 1 && nothingJSON.standardOutput == "[]\n", "\(nothingJSON)")
        let help = try sandbox.run("search", "--help").standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("1 when none does, as grep does"), "\(help)")
        let manual = try sandbox.run("--generate-man-page").standardOutput
        #expect(manual.contains("1 when none does, as grep does"), "\(manual)")

        // An empty file dropped into the library is listed as damaged and refused by name.
        #expect(FileManager.default.createFile(atPath: sandbox.libraryDirectory.path + "/empty.wav", contents: Data()))
        let empty = try sandbox.run("transcribe", "empty")
        #expect(empty.status == 1 && empty.standardError.contains("empty.wav"), "\(empty)")

        try sandbox.writeConfig("transcribe.model = \(sandbox.file("no-model"))\n")
        let noModel = try sandbox.run("transcribe", id)
        #expect(noModel.status == 1, "\(noModel)")
        #expect(noModel.standardError.contains("pocketsphinx-en-us") && noModel.standardError.contains("no-model"), "\(noModel)")

        // A damaged acoustic model makes SphinxBase exit(1) inside ps_init: still a message.
        let damaged = try sandbox.shell(
            "m=\(sandbox.file("damaged-model")); mkdir -p $m/en-us && "
                + "ln -s /usr/share/pocketsphinx/model/en-us/en-us.lm.bin /usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict $m/ && "
                + "ln -s /usr/share/pocketsphinx/model/en-us/en-us/* $m/en-us/ && rm $m/en-us/mdef && echo garbage > $m/en-us/mdef")
        #expect(damaged.status == 0, "\(damaged)")
        try sandbox.writeConfig("transcribe.model = \(sandbox.file("damaged-model"))\n")
        let broken = try sandbox.run("transcribe", id)
        #expect(broken.status == 1 && broken.standardError.contains("pocketsphinx-en-us"), "\(broken)")

        try sandbox.writeConfig("transcribe = off\n")
        let off = try sandbox.run("transcribe", id)
        #expect(off.status == 1 && off.standardError.contains("transcribe = off"), "\(off)")
        try sandbox.writeConfig("transcribe = always\n")
        let bad = try sandbox.run("transcribe", id)
        #expect(bad.status == 2 && bad.standardError.contains("auto, manual, off"), "\(bad)")
    }

    static func editDistance(_ reference: [String], _ hypothesis: [String]) -> Int {
        var previous = Array(0...hypothesis.count)
        for (row, word) in reference.enumerated() {
            var current = [row + 1] + Array(repeating: 0, count: hypothesis.count)
            for (column, heard) in hypothesis.enumerated() {
                current[column + 1] = min(previous[column] + (word == heard ? 0 : 1), previous[column + 1] + 1, current[column] + 1)
            }
            previous = current
        }
        return previous[hypothesis.count]
    }
}
