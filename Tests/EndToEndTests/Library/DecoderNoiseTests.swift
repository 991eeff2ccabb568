import Foundation
import Testing

/// Libmpg123, inside libsndfile's MP3 decoder, prints its own notes on a
/// damaged MP3 ("Note: Illegal Audio-MPEG-Header…", "Warning: Xing stream size off…"). They
/// reached the standard error of every command that read such a file dropped into the
/// library; now only VoiceMemo's own words do.
@Suite struct DecoderNoiseTests {
    /// An MP3 cut short (its Xing header counts the whole) with junk in its middle.
    private func sandboxWithADamagedMP3() throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("""
            ffmpeg -v error -f lavfi -i "sine=frequency=440:duration=10" -c:a libmp3lame whole.mp3 || exit 1
            { head -c 20000 whole.mp3
              for i in $(seq 1 50); do printf 'junk\\377\\373junk'; done
              tail -c +20001 whole.mp3 | head -c 20000
            } > "$VOICEMEMO_HOME/bad.mp3"
            """)
        #expect(made.status == 0, "\(made)")
        return sandbox
    }

    private static let noise = ["Illegal Audio-MPEG-Header", "Xing stream size", "Note: ", "Warning: ", "resync"]

    private func expectNoDecoderNoise(_ outcome: ProcessOutcome, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let heard = Self.noise.filter { outcome.standardError.contains($0) }
        #expect(heard.isEmpty, "\(what): \(outcome.standardError)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ["list"], ["waveform", "bad"], ["analyze", "bad"], ["play", "bad", "--device", "null"],
        ["trim", "bad", "--from", "0.5", "--to", "1.5"],
    ])
    func aDamagedMP3InTheLibraryPrintsNoDecoderNotes(arguments: [String]) throws {
        let sandbox = try sandboxWithADamagedMP3()
        // The first command adopts the file (reading it whole); the second reads it again itself.
        let first = try sandbox.run(arguments: arguments)
        expectNoDecoderNoise(first, "\(arguments), adopting")
        #expect(first.standardError.contains("1 memo adopted (found in the folder): 1"), "our own words stay: \(first)")
        let again = try sandbox.run(arguments: arguments)
        expectNoDecoderNoise(again, "\(arguments), again")
        if arguments.first == "trim" {
            #expect(first.status == 0, "\(first)")
            #expect(first.standardError.contains("note: MP3 is lossy"), "\(first)")
        }
    }

    @Test func analyzeOfADamagedMP3FileOutsideTheLibraryToo() throws {
        let sandbox = try sandboxWithADamagedMP3()
        let outside = sandbox.file("outside.mp3")
        try FileManager.default.moveItem(atPath: sandbox.libraryDirectory.appendingPathComponent("bad.mp3").path, toPath: outside)
        let outcome = try sandbox.run("analyze", outside)
        expectNoDecoderNoise(outcome, "analyze FILE")
        #expect((outcome.standardOutput + outcome.standardError).contains("outside.mp3"), "\(outcome)")
    }
}
