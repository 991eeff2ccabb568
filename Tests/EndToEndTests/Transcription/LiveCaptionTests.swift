import Foundation
import Testing

/// `record --captions`: draft words while recording, through the binary, from read speech
/// played in real time; the saved memo is transcribed whole afterwards as without captions.
@Suite struct LiveCaptionTests {
    /// pocketsphinx-testdata's LibriVox clip: "and mister john dashwood had then leisure to
    /// consider how much there might be prudently in his power to do for them" (7.1 s).
    static let clip = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav"
    static let spokenWords: Set<String> = [
        "mister", "john", "dashwood", "had", "then", "leisure", "consider", "how", "much", "there", "might",
        "prudently", "his", "power", "for", "them",
    ]

    /// The clip as a 48 kHz stereo file with silence around it, played in real time.
    static func phraseFile(in sandbox: VoiceMemoSandbox) throws -> String {
        let path = sandbox.file("phrase.wav")
        let made = try sandbox.shell("sox \(clip) -r 48000 -c 2 \(path) pad 0.3 1.5")
        #expect(made.status == 0, "\(made)")
        return path
    }

    @Test func captionEventsComeWhileRecordingAndTheMemoIsStillTranscribedWhole() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("transcribe = auto\n")
        let phrase = try Self.phraseFile(in: sandbox)
        let recorded = try sandbox.run(
            "record", "--source", "file:" + phrase, "--captions", "--json", "--title", "Dashwood", timeout: .seconds(120))
        #expect(recorded.status == 0, "\(recorded)")
        let lines = recorded.standardOutput.split(separator: "\n").map(String.init)
        let objects = lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        #expect(objects.count == lines.count, "every line is one JSON object: \(recorded.standardOutput)")
        let captions = objects.filter { $0["event"] as? String == "caption" }
        // The memo comes last, once the recording has stopped: every caption came before it.
        let memo = try #require(objects.last)
        #expect(memo["event"] == nil && memo["id"] is Int, "\(recorded.standardOutput)")
        let heard = Set(captions.flatMap { ($0["text"] as? String ?? "").split(separator: " ").map(String.init) })
        #expect(heard.intersection(Self.spokenWords).count >= 3, "heard \(heard.sorted()); \(recorded)")
        #expect(captions.contains { $0["final"] as? Bool == false }, "drafts in progress: \(captions)")
        #expect(captions.contains { $0["final"] as? Bool == true }, "settled utterances: \(captions)")
        for caption in captions {
            let start = try #require(caption["start"] as? Double)
            let end = try #require(caption["end"] as? Double)
            #expect(start >= 0 && end >= start && end <= 12, "\(caption)")
        }
        #expect(!recorded.standardError.contains("captions stopped"), "\(recorded.standardError)")
        // Transcribed as before, from the saved file.
        let id = try #require(memo["id"] as? Int)
        let listed = try #require(try sandbox.listedMemos().first { $0["id"] as? Int == id })
        #expect(listed["transcript"] as? String == "complete", "\(listed); \(recorded.standardError)")
        let search = try sandbox.run("search", "leisure")
        #expect(search.standardOutput.contains("Dashwood"), "\(search)")
    }

    /// A file read as fast as it can be (`VOICEMEMO_UNPACED`) outruns any recogniser: captions
    /// stop saying so once, and the recording is whole.
    @Test func captionsThatCannotKeepUpStopSayingSoAndTheRecordingIsWhole() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        let long = sandbox.file("long.wav")
        let made = try sandbox.shell("sox \(Self.clip) \(Self.clip) \(Self.clip) \(Self.clip) -r 48000 -c 2 \(long)")
        #expect(made.status == 0, "\(made)")
        let recorded = try sandbox.run("record", "--source", "file:" + long, "--captions", "--json", timeout: .seconds(120))
        #expect(recorded.status == 0, "\(recorded)")
        let stopped = recorded.standardError.components(separatedBy: "captions stopped: this machine cannot keep up")
        #expect(stopped.count == 2, "said once: \(recorded.standardError)")
        #expect(recorded.standardOutput.contains("\"event\":\"captions_stopped\""), "\(recorded)")
        let memo = try #require(try sandbox.listedMemos().first)
        let duration = try #require(memo["duration"] as? Double)
        #expect(abs(duration - 4 * 113_600 / 16_000) < 0.01, "\(memo)")
    }

    @Test func anUnusableModelRecordsAnywayAndSaysWhyCaptionsAreUnavailable() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        try sandbox.writeConfig("transcribe = manual\ntranscribe.model = \(sandbox.file("no-model"))\n")
        let recorded = try sandbox.run("record", "--source", "tone:440@-12", "--duration", "1", "--captions")
        #expect(recorded.status == 0, "\(recorded)")
        #expect(Int(recorded.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(recorded)")
        #expect(recorded.standardError.contains("captions are unavailable: no speech model in \(sandbox.file("no-model"))"), "\(recorded.standardError)")
        let json = try sandbox.run("record", "--source", "tone:440@-12", "--duration", "1", "--captions", "--json")
        #expect(json.status == 0, "\(json)")
        #expect(json.standardOutput.contains("\"event\":\"captions_unavailable\""), "\(json)")
        #expect(try sandbox.listedMemos().count == 2)
        // The config's setting and --vox.
        try sandbox.writeConfig("transcribe = manual\ntranscribe.model = \(sandbox.file("no-model"))\ncaptions = on\n")
        let fromConfig = try sandbox.run("record", "--source", "tone:440@-12", "--duration", "0.5")
        #expect(fromConfig.status == 0 && fromConfig.standardError.contains("captions are unavailable"), "\(fromConfig)")
        let vox = try sandbox.run("record", "--source", "tone:440@-12", "--vox", "--captions")
        #expect(vox.status == 2, "\(vox)")
        try sandbox.writeConfig("captions = maybe\n")
        let badValue = try sandbox.run("record", "--source", "tone:440@-12", "--duration", "0.5")
        #expect(badValue.status != 0 && badValue.standardError.contains("captions"), "\(badValue)")
    }
}
