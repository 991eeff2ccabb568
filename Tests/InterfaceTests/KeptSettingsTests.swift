import TestSupport
import Testing
import Vocabulary

@testable import Interface

/// Settings changed in the app are handed to the runner to keep (`Effect.saveSettings`): each
/// change once, with its new value; the start's own values (flags, the config file) are not;
/// a config that cannot keep them is said once.
@Suite struct KeptSettingsTests {
    static func saved(_ effects: [Effect]) -> [SettingChange] {
        effects.flatMap { effect -> [SettingChange] in
            if case .saveSettings(let changes) = effect { return changes }
            return []
        }
    }

    @Test func theVoicePanelsRowsAreKeptAsTheyChange() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(Self.saved(reduce(&state, .key(.character("V")))).isEmpty, "opening the panel changes nothing")
        #expect(Self.saved(reduce(&state, .key(.right))) == [.voiceThreshold(-39)])
        #expect(Self.saved(reduce(&state, .key(.down))).isEmpty)
        #expect(Self.saved(reduce(&state, .key(.left))) == [.voiceSilence(2.9)])
        for _ in 0..<5 { _ = reduce(&state, .key(.down)) }
        #expect(Self.saved(reduce(&state, .key(.right))) == [.alert(true)], "the noise alert's switch")
        #expect(Self.saved(reduce(&state, .key(.escape))).isEmpty, "closing re-arms; nothing more to keep")
    }

    @Test func meterSortEnhanceVolumeAndOutputAreKept() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(Self.saved(reduce(&state, .key(.character("m")))) == [.meterMode(.ppm1)])
        #expect(Self.saved(reduce(&state, .key(.character("a")))) == [.sortOrder(.byTitle)])
        #expect(Self.saved(reduce(&state, .key(.character("f")))) == [.enhance(true)])
        #expect(Self.saved(reduce(&state, .key(.character("-")))) == [.volume(90)])
        #expect(Self.saved(reduce(&state, .key(.character("]")))).isEmpty, "the speed is not kept")
        _ = reduce(&state, .key(.character("O")))
        _ = reduce(&state, .outputsListed([OutputChoice(device: "default", description: ""), OutputChoice(device: "pulse", description: "")]))
        _ = reduce(&state, .key(.down))
        #expect(Self.saved(reduce(&state, .key(.enter))) == [.playbackDevice("pulse")])
    }

    @Test func anInputIsKeptOnceThePickersChoiceHasOpened() {
        var state = Fixtures.state(width: 80, height: 24)
        let tone = InputName.tone(frequency: 440, peakDBFS: -12)
        #expect(Self.saved(reduce(&state, .inputOpened(Fixtures.input))).isEmpty, "the input the app started with is not a choice")
        _ = reduce(&state, .key(.character("i")))
        _ = reduce(&state, .inputsListed(InputChoiceList(choices: [InputChoice(source: tone, description: "tone")])))
        #expect(Self.saved(reduce(&state, .key(.enter))).isEmpty, "not before it opens")
        var opened = Fixtures.input
        opened.name = tone
        #expect(Self.saved(reduce(&state, .inputOpened(opened))) == [.input(tone)])
    }

    @Test func theStartsOwnValuesAreNotKept() {
        var state = Fixtures.state(width: 80, height: 24)
        state.playbackDevice = "hw:1"
        state.meterMode = .vu
        #expect(Self.saved(reduce(&state, .key(.character("a")))) == [.sortOrder(.byTitle)], "only what changed")
    }

    @Test func aConfigThatCannotKeepThemIsSaidOnce() {
        var state = Fixtures.state(width: 80, height: 24)
        let failure = AppFailure.settingsNotSaved(detail: "the config file is read-only (/home/a/.config/voicememo/config)")
        _ = reduce(&state, .settingsNotSaved(failure))
        #expect(state.status?.text == "Settings changed here last until the app quits: the config file is read-only (/home/a/.config/voicememo/config).")
        _ = reduce(&state, .key(.character("m")))
        _ = reduce(&state, .settingsNotSaved(failure))
        #expect(state.status?.text.hasPrefix("Meter:") == true, "not said again: \(state.status?.text ?? "")")
    }
}
