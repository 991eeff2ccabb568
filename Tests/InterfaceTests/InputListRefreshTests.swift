import TestSupport
import Testing

@testable import Interface

/// The open input picker asks for its list again every two seconds, so a microphone plugged in
/// while it is open appears, and the selection stays on the input it was on.
@Suite struct InputListRefreshTests {
    static let tone = InputChoice(source: .tone(frequency: 440, peakDBFS: -20), description: "now")
    static let headset = InputChoice(source: .pulse(source: "usb_headset"), description: "default — USB Headset Mono")
    static let webcam = InputChoice(source: .pulse(source: "webcam_mic"), description: "Webcam Mic")
    static let card = InputChoice(source: .alsa(device: "default"), description: "Default ALSA device")

    @Test func theOpenPickerAsksAgainAndKeepsTheSelectionOnItsInput() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .tick(time: 100, snapshot: nil))
        #expect(reduce(&state, .key(.character("i"))) == [.listInputs])
        #expect(!state.inputListIsDue(at: 110), "not before the first list came")
        _ = reduce(&state, .inputsListed(InputChoiceList(choices: [Self.tone, Self.headset, Self.card])))
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        #expect(state.pickerSelection == 2, "on the ALSA device")
        #expect(!state.inputListIsDue(at: 101.9))
        #expect(state.inputListIsDue(at: 102))

        #expect(reduce(&state, .inputListDue(time: 102)) == [.listInputs])
        #expect(!state.inputListIsDue(at: 103), "not while the listing runs")
        #expect(reduce(&state, .inputListDue(time: 103)) == [], "a late due is ignored")
        _ = reduce(&state, .inputsListed(InputChoiceList(choices: [Self.tone, Self.headset, Self.webcam, Self.card])))
        _ = reduce(&state, .workFinished)
        #expect(state.mode == .pickingInput(choices: [Self.tone, Self.headset, Self.webcam, Self.card]))
        #expect(state.pickerSelection == 3, "still on the ALSA device, below the new microphone")
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("Webcam Mic") }, "\(lines)")

        // The selected input unplugged: the selection goes back to the current input.
        _ = reduce(&state, .inputListDue(time: 105))
        _ = reduce(&state, .inputsListed(InputChoiceList(choices: [Self.tone, Self.headset])))
        #expect(state.pickerSelection == 0)
    }

    @Test func aClosedPickerIsNotAskedAgain() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("i")))
        _ = reduce(&state, .inputsListed(InputChoiceList(choices: [Self.tone])))
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .key(.escape))
        #expect(!state.inputListIsDue(at: state.now + 60))
        #expect(reduce(&state, .inputListDue(time: state.now + 60)) == [])
    }
}
