import Foundation
import SoundFiles
import Testing

/// `.m4a` files copied into the library folder, as a phone's voice memos would be: adopted
/// with their title and date, played, measured and exported like any memo; bad ones are
/// named and hurt nothing else.
@Suite struct M4AAdoptionTests {
    /// A memo made by `ffmpeg -metadata title=… -metadata creation_time=…` (AAC-LC, 2 s stereo
    /// at 48 kHz): adopted with that title and date, played through the ALSA file playback
    /// device frame for frame as long as the index says, measured (statistics, envelope) and
    /// exported to WAV with the same length.
    @Test func aPhonesM4AIsAdoptedPlayedMeasuredAndExported() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        let made = try sandbox.shell("""
            mkdir -p "$VOICEMEMO_HOME"
            ffmpeg -v error -f lavfi -i "sine=frequency=500:sample_rate=48000:duration=2" -ac 2 -c:a aac \
                -metadata title="Voice memo ✓ from the phone" -metadata creation_time=2025-06-01T10:00:00Z \
                "$VOICEMEMO_HOME/New Recording 12.m4a"
            """)
        #expect(made.status == 0, "\(made)")
        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0, "\(list)")
        #expect(list.standardError.contains("1 memo adopted"), "\(list)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["title"] as? String == "Voice memo ✓ from the phone", "\(memo)")
        #expect(memo["created"] as? String == "2025-06-01T10:00:00Z", "\(memo)")
        #expect(memo["format"] as? String == "m4a" && memo["encoding"] as? String == "aac", "\(memo)")
        #expect(memo["state"] as? String == "complete", "\(memo)")
        let frames = try #require(memo["frames"] as? Int)
        #expect(frames == 96_000, "the edit list's length: \(frames)")
        #expect((memo["loudness_lufs"] as? Double) != nil, "measured when adopted: \(memo)")

        let played = try sandbox.run("play", "1", "--device", "voicememo_playback")
        #expect(played.status == 0, "\(played)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw"))).count
        #expect(bytes == frames * 4, "S16 stereo: \(bytes / 4) frames played of \(frames)")

        let analyzed = try sandbox.run("analyze", "1")
        #expect(analyzed.status == 0 && analyzed.standardOutput.contains("integrated loudness:"), "\(analyzed)")
        let waveform = try sandbox.run("waveform", "1", "--width", "10", "--json")
        #expect(waveform.status == 0 && waveform.standardOutput.contains("\"width\": 10"), "\(waveform)")

        let exported = try sandbox.run("export", "1", "--format", "wav", sandbox.file("phone.wav"))
        #expect(exported.status == 0, "\(exported)")
        let reader = try SoundFileReader(path: sandbox.file("phone.wav"))
        #expect(reader.info.frames == Int64(frames) && reader.info.format == .wav)
        #expect(reader.metadata.title == "Voice memo ✓ from the phone")
        reader.close()

        // Renamed: the AAC packets are remuxed with the new title, the audio is the same.
        let renamed = try sandbox.run("rename", "1", "Renamed phone memo")
        #expect(renamed.status == 0 && !renamed.standardError.contains("index only"), "\(renamed)")
        let path = try #require(memo["path"] as? String)
        let after = try M4ACommandTests.probe(sandbox, path, "stream=duration_ts:format_tags=title")
        #expect(after["TAG:title"] == "Renamed phone memo" && after["duration_ts"] == "96000", "\(after)")
    }

    /// A truncated .m4a (no moov atom) and a text file named .m4a beside a good memo: both are
    /// listed `damaged`, playing or exporting one names the file and the cause, and the good
    /// memo is untouched and plays.
    @Test func badM4AFilesAreNamedAndNothingElseIsAffected() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        let good = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "1", "--format", "m4a", "--title", "Good")
        #expect(good.status == 0, "\(good)")
        let made = try sandbox.shell("""
            ffmpeg -v error -f lavfi -i "sine=duration=3" -c:a aac "$PWD/whole.m4a"
            head -c $(( $(stat -c %s whole.m4a) / 2 )) whole.m4a > "$VOICEMEMO_HOME/cut.m4a"
            printf 'not audio at all\\n' > "$VOICEMEMO_HOME/notes.m4a"
            """)
        #expect(made.status == 0, "\(made)")
        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0, "\(list)")
        #expect(list.standardError.contains("2 memos unreadable (damaged)"), "\(list)")
        let memos = try sandbox.listedMemos()
        let byTitle = Dictionary(uniqueKeysWithValues: memos.compactMap { memo in (memo["title"] as? String).map { ($0, memo) } })
        #expect(byTitle["cut"]?["state"] as? String == "damaged", "\(memos)")
        #expect(byTitle["notes"]?["state"] as? String == "damaged", "\(memos)")
        #expect(byTitle["Good"]?["state"] as? String == "complete" && byTitle["Good"]?["frames"] as? Int == 48_000, "\(memos)")

        let cut = try sandbox.run("play", "cut", "--device", "voicememo_playback")
        #expect(cut.status == 1, "\(cut)")
        #expect(cut.standardError.contains("cut.m4a") && cut.standardError.contains("truncated or damaged: it has no index (moov atom)"), "\(cut)")
        let notes = try sandbox.run("export", "notes", "--format", "wav", sandbox.file("notes.wav"))
        #expect(notes.status == 1, "\(notes)")
        #expect(notes.standardError.contains("notes.m4a") && notes.standardError.contains("not an MP4 (M4A) file"), "\(notes)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("notes.wav")), "nothing written")

        let played = try sandbox.run("play", "Good", "--device", "voicememo_playback")
        #expect(played.status == 0, "\(played)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw"))).count == 48_000 * 4)
        let again = try sandbox.listedMemos()
        #expect(again.count == 3 && again.contains { $0["title"] as? String == "Good" && $0["state"] as? String == "complete" }, "\(again)")
    }
}
