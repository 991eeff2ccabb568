import Foundation
import TestSupport
import Testing

/// A meeting recorded through PulseAudio and transcribed: a phrase spoken into the microphone
/// is "Me", a phrase the desktop plays is "Them" (flite's `slt` voice, which PocketSphinx hears
/// nearly word for word), in `transcribe`, `search` and an exported transcript.
@Suite struct MeetingTranscriptTests {
    static let mine = "the weather is nice today and the garden is green"
    static let theirs = "please send the budget report to the finance office"

    @Test func theMicrophonesWordsAreMeAndTheDesktopsAreThem() throws {
        let microphone = try PulseTestMicrophone(description: "Meeting Mic")
        let desktop = try PulseTestSink.load(on: microphone.server)
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = sandbox.file("events")
        let recording = try sandbox.shell(
            """
            flite -voice slt -t "\(Self.mine)" -o mine.wav && flite -voice slt -t "\(Self.theirs)" -o theirs.wav || exit 89

            """ + MeetingCommandTests.meetingRecordingOneSecondIn(
                source: "pulse:\(microphone.source)+pulse:\(desktop.monitor)", title: "Standup") + """
            paplay -d \(microphone.feed) mine.wav || { kill $pid; exit 92; }
            sleep 4
            paplay -d \(desktop.name) theirs.wav || { kill $pid; exit 93; }
            sleep 1
            voicememo stop || { kill $pid; exit 94; }
            wait $pid; echo "status=$?"
            """, timeout: .seconds(120))
        #expect(recording.standardOutput.contains("status=0"), "\(recording)")
        let memo = try #require(try sandbox.listedMemos().first)
        let id = String(try #require(memo["id"] as? Int))

        let transcribed = try sandbox.run("transcribe", id, "--json", timeout: .seconds(180))
        #expect(transcribed.status == 0, "\(transcribed)")
        let object = try JSONSerialization.jsonObject(with: Data(transcribed.standardOutput.utf8)) as? [String: Any]
        let words = try #require(object?["words"] as? [[String: Any]], "\(transcribed)")
        let spoken = words.compactMap { word -> (String, String)? in
            guard let text = word["word"] as? String, let speaker = word["speaker"] as? String else { return nil }
            return (text, speaker)
        }
        #expect(spoken.count == words.count, "every word of a meeting names its speaker: \(words)")
        for word in ["weather", "garden"] {
            #expect(spoken.contains { $0 == (word, "Me") }, "“\(word)” is Me: \(spoken)")
        }
        for word in ["budget", "report"] {
            #expect(spoken.contains { $0 == (word, "Them") }, "“\(word)” is Them: \(spoken)")
        }
        #expect(!spoken.contains { $0.1 == "Them" && ["weather", "garden"].contains($0.0) }, "\(spoken)")
        #expect(!spoken.contains { $0.1 == "Me" && ["budget", "report"].contains($0.0) }, "\(spoken)")

        let text = try sandbox.run("transcribe", id)
        #expect(text.standardOutput.contains("Me: the weather"), "\(text)")
        #expect(text.standardOutput.contains("Them: please send"), "\(text)")
        let search = try sandbox.run("search", "budget")
        #expect(search.standardOutput.contains("Standup  Them: "), "\(search)")
        let subtitles = sandbox.file("standup.vtt")
        let exported = try sandbox.run("export", id, subtitles)
        #expect(exported.status == 0, "\(exported)")
        let vtt = (try? String(contentsOfFile: subtitles, encoding: .utf8)) ?? ""
        #expect(vtt.contains("<v Me>the weather") && vtt.contains("<v Them>please send"), "\(vtt)")
    }
}
