import Audio
import ArgumentParsing
import Testing
import AppRuntime
import VoiceMemoCLI

@Suite("--source")
struct InputSourceTests {
    @Test(
        "accepted",
        arguments: [
            ("alsa:default", InputSource.alsa(device: "default")),
            ("alsa:hw:1,0", .alsa(device: "hw:1,0")),
            ("tone:1000@-12", .tone(frequency: 1000, peakDBFS: -12)),
            ("tone:440.5@0", .tone(frequency: 440.5, peakDBFS: 0)),
            ("tone:1000Hz@-6dB", .tone(frequency: 1000, peakDBFS: -6)),
            ("file:speech.wav", .file(path: "speech.wav")),
            ("file:/tmp/with:colon.flac", .file(path: "/tmp/with:colon.flac")),
        ])
    func accepted(text: String, expected: InputSource) throws {
        #expect(try InputSource(parsing: text) == expected)
    }

    @Test func describesItselfAsTyped() throws {
        #expect(try InputSource(parsing: "tone:1000@-12").description == "tone:1000@-12")
        #expect(InputSource.tone(frequency: 440.5, peakDBFS: -3.5).description == "tone:440.5@-3.5")
        #expect(InputSource.default.description == "alsa:default")
    }

    @Test(
        "refused",
        arguments: ["tone:abc", "tone:1000", "tone:@-12", "tone:1000@", "tone:1000@-12@3", "tone:nan@-1", "tone:1e3@-1"])
    func refusedTones(text: String) {
        #expect(throws: ValueRejection.custom(problem: "is not a tone", allowed: "use tone:FREQ@DBFS, e.g. tone:1000@-12")) {
            try InputSource(parsing: text)
        }
    }

    @Test func toneMustStayBelowHalfTheRate() {
        let tone = InputSource.tone(frequency: 30_000, peakDBFS: -12)
        #expect(tone.rejection(atSampleRate: 96_000) == nil)
        #expect(tone.rejection(atSampleRate: 48_000) != nil)
        #expect(InputSource.alsa(device: "default").rejection(atSampleRate: 8_000) == nil)
    }
}
