import TestSupport
import Testing

@testable import Interface

/// `O`: where memos play. The picker lists the playback devices (the current one selected),
/// Enter makes the choice the device of the next play; the memo that plays goes on where it is.
@Suite struct OutputPickerTests {
    static let choices = [
        OutputChoice(device: "default", description: "now"), OutputChoice(device: "null", description: "Discard all samples"),
        OutputChoice(device: "voicememo_playback", description: "VoiceMemo test playback"),
    ]

    @Test func oListsTheDevicesAndEnterChoosesOne() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("O"))) == [.listOutputs])
        #expect(state.mode == .pickingOutput(choices: nil))
        #expect(AppView.render(state).lines().contains { $0.contains("Looking for playback devices…") })
        _ = reduce(&state, .outputsListed(Self.choices))
        #expect(state.pickerSelection == 0, "the current device is selected")
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("Choose where memos play") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("▶ default") }, "\(lines)")
        #expect(lines.last?.contains("⏎ choose") == true)
        _ = reduce(&state, .key(.character("G")))
        #expect(reduce(&state, .key(.enter)) == [.selectOutput(device: "voicememo_playback"), .saveSettings([.playbackDevice("voicememo_playback")])])
        #expect(state.mode == .browsing && state.playbackDevice == "voicememo_playback")
        #expect(state.status?.text == "Memos play on voicememo_playback.")

        #expect(reduce(&state, .key(.character("O"))) == [.listOutputs])
        _ = reduce(&state, .outputsListed(Self.choices))
        #expect(state.pickerSelection == 2, "the device chosen before is selected")
        #expect(reduce(&state, .key(.escape)) == [])
        #expect(state.mode == .browsing && state.playbackDevice == "voicememo_playback", "Esc changes nothing")
    }

    @Test func whilePlayingTheChoiceIsForTheNextMemo() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 131, channels: 2))
        _ = reduce(&state, .key(.character("O")))
        _ = reduce(&state, .outputsListed(Self.choices))
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.enter)) == [.selectOutput(device: "null"), .saveSettings([.playbackDevice("null")])])
        #expect(state.playback != nil, "the memo that plays goes on")
        #expect(state.status?.text.contains("from the next ⏎") == true)
    }

    @Test func aListThatComesAfterThePickerClosedIsIgnored() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("O")))
        _ = reduce(&state, .key(.escape))
        _ = reduce(&state, .outputsListed(Self.choices))
        #expect(state.mode == .browsing)
        #expect(KeyHelp.all.contains { $0.0 == "O" } && KeyHelp.footer.contains { $0.0 == "O" })
    }

    /// The helpers the list left out are named on the title row, as the input picker does.
    @Test func theHiddenHelpersAreNamedOnTheTitleRow() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("O")))
        _ = reduce(&state, .outputsListed(Self.choices, hidden: ["lavrate", "samplerate"]))
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("Choose where memos play") && $0.contains("not listed: 2 converters and mixers") }, "\(lines)")
    }
}
