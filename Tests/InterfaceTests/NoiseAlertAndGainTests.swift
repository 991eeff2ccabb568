import TestSupport
import Vocabulary
import Metering
import Testing

@testable import Interface

/// The noise alert's panel rows, mark and status line, and the capture keys `<` `>` `M`, in
/// the reducer and the views.
@Suite struct NoiseAlertAndGainTests {
    static let t = Fixtures.now + 10
    static var alsa: InputDescription {
        var input = Fixtures.input
        input.hasCaptureMixer = true
        return input
    }

    /// The state after turning the alert on in the panel (V, down to its first row, →, then `keys`, Esc).
    static func alertOn(_ keys: [Key] = [], input: InputDescription? = Fixtures.input) -> (AppState, [Effect]) {
        var state = Fixtures.state(width: 80, height: 24, input: input)
        _ = reduce(&state, .key(.character("V")))
        for _ in 0..<SettingsField.alert(.alert).index { _ = reduce(&state, .key(.down)) }
        #expect(state.mode == .voiceSettings(.alert(.alert)))
        _ = reduce(&state, .key(.right))
        for key in keys { _ = reduce(&state, .key(key)) }
        let effects = reduce(&state, .key(.escape))
        return (state, effects)
    }

    @Test func theAlertIsOffByDefaultAndThePanelTurnsItOnChangesAndOff() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(state.alert.parameters.isOn == false && state.alert.armedWith == nil)
        let (on, effects) = Self.alertOn([.down, .pageUp, .right, .down, .character("+"), .pageUp])
        #expect(effects == [.setNoiseAlert(NoiseAlertParameters(isOn: true, levelDB: -19, hold: 2.1))])
        #expect(on.statusLine?.text == "Noise alert on: bell and message when the level stays above -19 dB for 2.1 s.")
        state = on
        _ = reduce(&state, .key(.character("V")))
        #expect(reduce(&state, .key(.enter)) == [], "unchanged: the detector runs on")
        _ = reduce(&state, .key(.character("V")))
        for _ in 0..<SettingsField.alert(.alert).index { _ = reduce(&state, .key(.down)) }
        _ = reduce(&state, .key(.left))
        #expect(reduce(&state, .key(.character("V"))) == [.setNoiseAlert(nil)])
        #expect(state.statusLine?.text == "Noise alert off.")
        // Clamped: the meter's range for the level, 0–60 s for the hold.
        var parameters = NoiseAlertParameters()
        parameters.adjust(.level, by: 500)
        parameters.adjust(.hold, by: -500)
        #expect(parameters.levelDB == 0 && parameters.hold == 0)
        parameters.adjust(.level, by: -500)
        parameters.adjust(.hold, by: 5000)
        #expect(parameters.levelDB == -90 && parameters.hold == 60)
    }

    @Test func anInputOpenedLaterGetsTheDetectorAndAFailedOneLosesIt() {
        var (state, effects) = Self.alertOn(input: nil)
        #expect(effects == [], "no input: nothing to run it on yet")
        #expect(reduce(&state, .inputOpened(Fixtures.input)) == [.setNoiseAlert(NoiseAlertParameters(isOn: true))])
        _ = reduce(&state, .inputFailed(.inputStopped(.alsa(device: "default"), reason: "unplugged")))
        #expect(state.alert.armedWith == nil)
        #expect(reduce(&state, .inputOpened(Self.alsa)) == [.readCaptureGain, .setNoiseAlert(NoiseAlertParameters(isOn: true))])
    }

    @Test func eachAlertRingsOnceAndTheMessageFlashesHoldsAndGoes() {
        var (state, _) = Self.alertOn()
        let event = NoiseAlertEvent(levelDB: -21.4, stayed: 1, inputTime: 12)
        var snapshot = Fixtures.levels(recording: .idle)
        snapshot.noiseAlert = NoiseAlertSnapshot(alerts: [event], isArmed: false)
        #expect(reduce(&state, .tick(time: Self.t + 20, snapshot: snapshot)) == [.ringBell])
        #expect(state.statusLine == StatusMessage(text: "NOISE ALERT: the level is -21 dB, above -30 dB for 1.0 s", kind: .alert))
        snapshot.noiseAlert = NoiseAlertSnapshot(alerts: [], isArmed: false)
        #expect(reduce(&state, .tick(time: Self.t + 30, snapshot: snapshot)) == [], "no second bell while it stays loud")
        #expect(state.statusLine?.kind == .alert, "held while the level stays up")
        snapshot.noiseAlert = NoiseAlertSnapshot(alerts: [], isArmed: true)
        _ = reduce(&state, .tick(time: Self.t + 31, snapshot: snapshot))
        #expect(state.statusLine?.kind != .alert, "re-armed and held long enough: gone")
        // A second crossing rings again and is counted.
        snapshot.noiseAlert = NoiseAlertSnapshot(alerts: [event], isArmed: false)
        #expect(reduce(&state, .tick(time: Self.t + 40, snapshot: snapshot)) == [.ringBell])
        #expect(state.statusLine?.text.hasSuffix("(alert 2)") == true)
        snapshot.noiseAlert = NoiseAlertSnapshot(alerts: [], isArmed: true)
        _ = reduce(&state, .tick(time: Self.t + 41, snapshot: snapshot))
        #expect(state.statusLine?.kind == .alert, "re-armed at once: still held for its minimum")
        #expect(state.alert.flashes(at: Self.t + 40.2) && !state.alert.flashes(at: Self.t + 40.7) && !state.alert.flashes(at: Self.t + 43.2))
        // The flash is reverse video on the status line.
        let screen = AppView.render(state)
        let row = state.layout.status?.y ?? 0
        #expect(screen.lines()[row].hasPrefix(" NOISE ALERT"))
        #expect(screen[2, row].style.attributes.contains(.reverse) == true)
    }

    @Test func theAlertLevelIsMarkedApartFromTheVoiceThreshold() {
        var (state, _) = Self.alertOn()
        let geometry = MeterGeometry(width: 80)
        let row = state.layout.meterRows[0]
        let alertLED = MeterView.ledIndex(position: state.meterScale.value(forPower: -30), geometry: geometry)
        let x = MeterGeometry.labelWidth + alertLED * geometry.ledWidth
        var screen = AppView.render(state)
        #expect(screen[x, row.y].glyph == "!")
        _ = reduce(&state, .key(.character("v")))
        screen = AppView.render(state)
        #expect(screen[x, row.y].glyph == "!")
        let voiceLED = MeterView.ledIndex(position: state.meterScale.value(forPower: -40), geometry: geometry)
        #expect(screen[MeterGeometry.labelWidth + voiceLED * geometry.ledWidth, row.y].glyph == "┃")
        // Off: no mark.
        _ = reduce(&state, .key(.character("V")))
        for _ in 0..<SettingsField.alert(.alert).index { _ = reduce(&state, .key(.down)) }
        _ = reduce(&state, .key(.left))
        _ = reduce(&state, .key(.escape))
        #expect(!AppView.render(state).lines()[row.y].contains("!"))
    }

    @Test func thePanelFitsAt80x24And30x8() {
        for (width, height) in [(80, 24), (30, 8)] {
            var state = Fixtures.state(width: width, height: height)
            _ = reduce(&state, .key(.character("V")))
            for _ in 0..<SettingsField.alert(.hold).index { _ = reduce(&state, .key(.down)) }
            let text = AppView.render(state).lines().joined(separator: "\n")
            #expect(text.contains("Alert for"), "the selected row stays in view at \(width)x\(height): \(text)")
            state = Fixtures.state(width: width, height: height)
            _ = reduce(&state, .key(.character("V")))
            for _ in 0..<SettingsField.replay(.pitch).index { _ = reduce(&state, .key(.down)) }
            let replay = AppView.render(state).lines().joined(separator: "\n")
            #expect(replay.contains("▶ Pitch     ◀    0 st ▶"), "\(width)x\(height): \(replay)")
        }
    }

    // MARK: Capture keys

    @Test func captureKeysAskTheRunnerOnlyForAnInputWithAMixer() {
        var state = Fixtures.state(width: 80, height: 24, input: Self.alsa)
        #expect(reduce(&state, .key(.character("<"))) == [.changeCaptureGain(.down)])
        #expect(state.work.map(\.kind) == [.changingCaptureGain], "tracked: the status line says so if it waits")
        _ = reduce(&state, .captureGainRead(CaptureGainReading(control: "Capture", percent: 39, decibels: nil, isOn: true), changed: true))
        _ = reduce(&state, .workFinished)
        #expect(state.statusLine?.text == "Capture 39 %")
        #expect(reduce(&state, .key(.character(">"))) == [.changeCaptureGain(.up)])
        _ = reduce(&state, .captureGainRead(CaptureGainReading(control: "Capture", percent: 82, decibels: -6, isOn: true), changed: true))
        #expect(state.statusLine?.text == "Capture -6.0 dB")
        #expect(reduce(&state, .key(.character("M"))) == [.changeCaptureGain(.toggleSwitch)])
        _ = reduce(&state, .captureGainRead(CaptureGainReading(control: "Mic", percent: 82, decibels: -6, isOn: false), changed: true))
        #expect(state.statusLine?.text == "Capture (Mic) -6.0 dB, switched off (M switches it on)")
        _ = reduce(&state, .captureGainFailed(.captureGain(.alsa(device: "vm"), detail: "the mixer \"vm\" has no capture volume control"), changed: true))
        #expect(state.statusLine?.text == "alsa:vm: the mixer \"vm\" has no capture volume control")

        var tone = Fixtures.state(width: 80, height: 24, input: InputDescription(name: .tone(frequency: 440, peakDBFS: -12), sampleRate: 48000, channels: 2, recordingFormat: "FLAC"))
        #expect(reduce(&tone, .key(.character(">"))) == [])
        #expect(tone.statusLine?.text == "tone:440@-12 has no capture volume: only ALSA inputs (alsa:NAME) and the sound server's sources (pulse:NAME) have one.")
        var none = Fixtures.state(width: 80, height: 24, input: nil)
        #expect(reduce(&none, .key(.character("M"))) == [])
        #expect(none.statusLine?.text.hasPrefix("No input is open") == true)
    }

    @Test func aSilentInputWithItsSwitchOffSaysSoAndOffersM() {
        var state = Fixtures.state(width: 80, height: 24, input: Self.alsa)
        #expect(reduce(&state, .tick(time: Self.t + 10, snapshot: Fixtures.mutedInput)) == [.readCaptureGain], "turned silent: is the switch off?")
        #expect(reduce(&state, .tick(time: Self.t + 10.1, snapshot: Fixtures.mutedInput)) == [], "asked once per change")
        #expect(state.statusLine?.text == InputDiagnosis.silent.message, "switch not known yet")
        _ = reduce(&state, .captureGainRead(CaptureGainReading(control: "Capture", percent: 40, decibels: nil, isOn: false), changed: false))
        #expect(state.status == nil, "a read nobody asked for says nothing itself")
        #expect(state.statusLine == StatusMessage(text: "Input is silent: the capture switch is off. Press M to switch it on.", kind: .warning))
        _ = reduce(&state, .captureGainRead(CaptureGainReading(control: "Capture", percent: 40, decibels: nil, isOn: true), changed: false))
        #expect(state.statusLine?.text == InputDiagnosis.silent.message)
        var tone = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&tone, .tick(time: Self.t + 10, snapshot: Fixtures.mutedInput)) == [], "no mixer: nothing to read")
    }
}
