import TestSupport
import Vocabulary
import Testing

@testable import Interface

/// The header on narrow terminals: the state and the timer win; the input's name shows only
/// where enough of it fits to mean something (" to", a stub of "tone:440@-12", said nothing).
@Suite struct HeaderViewTests {
    @Test(arguments: [
        (12, "    00:00:00"),
        (16, " idle  00:00:00 "),
        (24, " tone:4… idle  00:00:00 "),
        (30, " tone:440@-12  idle  00:00:00 "),
    ])
    func narrowHeaderShowsTheTimerAndOnlyAReadableName(width: Int, expected: String) {
        var state = Fixtures.state(width: width, height: 5)
        state.input = InputDescription(name: .tone(frequency: 440, peakDBFS: -12), sampleRate: 48_000, channels: 2, recordingFormat: "FLAC")
        let header = AppView.render(state).lines()[0]
        #expect(header == expected, "header \(header.debugDescription)")
    }
}
