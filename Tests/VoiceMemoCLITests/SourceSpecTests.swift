import ArgumentParsing
import Testing
import VoiceMemoCLI

@Suite("--source")
struct SourceSpecTests {
    @Test(
        "accepted",
        arguments: [
            ("alsa:default", SourceSpec.alsa(name: "default")),
            ("alsa:hw:1,0", .alsa(name: "hw:1,0")),
            ("tone:1000@-12", .tone(frequency: 1000, peakDBFS: -12)),
            ("tone:440.5@0", .tone(frequency: 440.5, peakDBFS: 0)),
            ("tone:1000Hz@-6dB", .tone(frequency: 1000, peakDBFS: -6)),
            ("file:speech.wav", .file(path: "speech.wav")),
            ("file:/tmp/with:colon.flac", .file(path: "/tmp/with:colon.flac")),
        ])
    func accepted(text: String, expected: SourceSpec) throws {
        #expect(try SourceSpec(parsing: text) == expected)
    }

    @Test func describesItselfAsTyped() throws {
        #expect(try SourceSpec(parsing: "tone:1000@-12").description == "tone:1000@-12")
        #expect(SourceSpec.tone(frequency: 440.5, peakDBFS: -3.5).description == "tone:440.5@-3.5")
        #expect(SourceSpec.default.description == "alsa:default")
    }

    @Test(
        "refused",
        arguments: ["tone:abc", "tone:1000", "tone:@-12", "tone:1000@", "tone:1000@-12@3", "tone:nan@-1", "tone:1e3@-1"])
    func refusedTones(text: String) {
        #expect(throws: ValueRejection.custom(problem: "is not a tone", allowed: "use tone:FREQ@DBFS, e.g. tone:1000@-12")) {
            try SourceSpec(parsing: text)
        }
    }

    @Test func toneMustStayBelowHalfTheRate() {
        let tone = SourceSpec.tone(frequency: 30_000, peakDBFS: -12)
        #expect(tone.rejection(atSampleRate: 96_000) == nil)
        #expect(tone.rejection(atSampleRate: 48_000) != nil)
        #expect(SourceSpec.alsa(name: "default").rejection(atSampleRate: 8_000) == nil)
    }
}
