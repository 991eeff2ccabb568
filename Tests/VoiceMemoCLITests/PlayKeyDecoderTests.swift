import Testing

@testable import VoiceMemoCLI

/// `PlayKeyDecoder`: the bytes a terminal sends for `voicememo play`'s keys.
@Suite struct PlayKeyDecoderTests {
    private func decode(_ chunks: [String]) -> [PlayKey] {
        var decoder = PlayKeyDecoder()
        return chunks.flatMap { decoder.keys(from: Array($0.utf8)) }
    }

    @Test func theAppsPlaybackKeys() {
        #expect(decode([" []qQ"]) == [.togglePause, .speed(-1), .speed(1), .quit, .quit])
        #expect(decode(["\u{1B}[C\u{1B}[D\u{1B}OC"]) == [.seek(5), .seek(-5), .seek(5)])
    }

    @Test func anArrowSplitAcrossReadsIsOneKey() {
        #expect(decode(["\u{1B}", "[", "C"]) == [.seek(5)])
        #expect(decode(["\u{1B}[", "D "]) == [.seek(-5), .togglePause])
    }

    @Test func otherKeysAndSequencesAreIgnored() {
        // Shift-→ (ESC [ 1 ; 2 C), ↑, F5, a lone Escape then a letter, other letters, control bytes.
        #expect(decode(["\u{1B}[1;2C\u{1B}[A\u{1B}[15~xyz\u{03}\u{1B}q"]) == [])
        #expect(decode(["\u{1B}x q"]) == [.togglePause, .quit])
    }

    @Test func speedStepsStayWithinTheRange() {
        #expect(PlayKeyDecoder.speed(1, stepped: 1) == 1.1)
        #expect(PlayKeyDecoder.speed(0.5, stepped: -1) == 0.5)
        #expect(PlayKeyDecoder.speed(3, stepped: 1) == 3)
        #expect(PlayKeyDecoder.speed(1.3, stepped: -3) == 1)
    }
}
