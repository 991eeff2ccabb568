@testable import VoiceActivation
import Audio
import Vocabulary
import Interface
import Foundation
import Testing

@testable import AppRuntime

/// The app's noise alert end to end without a device or a terminal: synthetic rooms in 10 ms
/// blocks through the CLI's detector (`LevelAlert`, as the app's `LevelAlertTap` runs it),
/// read at ~30 Hz ticks into snapshots as `InputSession` makes them, through `reduce`.
@Suite struct AppNoiseAlertTests {
    static let rate = 48_000
    static let block = 480
    static let tickBlocks = 3
    static let start = 1_795_961_100.0

    /// What the app did: bells rung, and the status line at each tick.
    struct Run {
        var bells = 0
        var lines: [(time: Double, line: StatusMessage?)] = []
    }

    /// An app state with an ALSA-like input and the alert turned on in the `V` panel at
    /// −30 dB for 1 s (as a person would: V, down to the alert rows, on, Esc).
    static func armedState() -> (AppState, [Effect]) {
        var state = AppState(width: 80, height: 24, now: start)
        _ = reduce(&state, .inputOpened(InputDescription(name: .alsa(device: "default"), sampleRate: rate, channels: 1, recordingFormat: "FLAC")))
        _ = reduce(&state, .key(.character("V")))
        for _ in 0..<SettingsField.alert(.alert).index { _ = reduce(&state, .key(.down)) }
        _ = reduce(&state, .key(.right))
        let effects = reduce(&state, .key(.escape))
        return (state, effects)
    }

    /// Feeds `sections` (seconds, RMS dBFS per block index) through the detector and the reducer.
    static func run(_ sections: [(Double, (Int) -> Double)], state: inout AppState, settings: LevelAlert.Settings) -> Run {
        var detector = LevelAlert(settings: settings, sampleRate: rate)
        var run = Run()
        var position = 0
        var pending: [LevelAlert.Alert] = []
        var blocks = 0
        for (seconds, level) in sections {
            let end = position + Int(seconds * Double(rate))
            var index = 0
            while position < end {
                let frames = min(block, end - position)
                if let alert = detector.consume(rms: Float(pow(10, level(index) / 20)), frames: frames, firstFrame: position) {
                    pending.append(alert)
                }
                position += frames
                index += 1
                blocks += 1
                if blocks % tickBlocks == 0 {
                    let time = start + Double(position) / Double(rate)
                    let snapshot = EngineSnapshot(
                        channels: [ChannelLevel(average: Float(detector.levelDB), peak: Float(detector.levelDB))],
                        noiseAlert: NoiseAlertSnapshot(
                            alerts: pending.map { InputSession.event($0, sampleRate: rate) }, isArmed: detector.isArmed))
                    pending = []
                    let effects = reduce(&state, .tick(time: time, snapshot: snapshot))
                    run.bells += effects.filter { $0 == .ringBell }.count
                    run.lines.append((time, state.statusLine))
                }
            }
        }
        return run
    }

    static func quiet(_: Int) -> Double { -60 }
    /// Speech-like: 250 ms syllables at −20 dB with 100 ms gaps at −60, and a 250 ms pause every 1.4 s.
    static func speech(_ index: Int) -> Double { index % 140 >= 115 ? -60 : (index % 35 < 25 ? -20 : -60) }

    static func settings(_ state: AppState) -> LevelAlert.Settings {
        let armed = state.alert.armedWith ?? NoiseAlertParameters()
        return LevelAlert.Settings(thresholdDB: armed.levelDB, duration: armed.hold)
    }

    @Test func thePanelTurnsTheAlertOnWithTheCLIsSettings() {
        let (state, effects) = Self.armedState()
        let expected = NoiseAlertParameters(isOn: true, levelDB: -30, hold: 1)
        #expect(effects == [.setNoiseAlert(expected)])
        #expect(Self.settings(state) == LevelAlert.Settings(thresholdDB: -30, duration: 1))
    }

    @Test func aKnockOfAThirdOfASecondWithAHoldOfOneSecondNeverAlerts() {
        var (state, _) = Self.armedState()
        let run = Self.run(
            [(2, Self.quiet), (0.3, { _ in -6 }), (3, Self.quiet), (0.3, { _ in -6 }), (3, Self.quiet)],
            state: &state, settings: Self.settings(state))
        #expect(run.bells == 0)
        #expect(run.lines.allSatisfy { $0.line?.kind != .alert })
        #expect(state.alert.count == 0)
    }

    @Test func twoSecondsOfSpeechAlertExactlyOnceAndTheMessageHoldsThenGoes() {
        var (state, _) = Self.armedState()
        let run = Self.run([(2, Self.quiet), (2, Self.speech), (6, Self.quiet)], state: &state, settings: Self.settings(state))
        #expect(run.bells == 1, "one bell per crossing")
        #expect(state.alert.count == 1)
        let alerted = run.lines.filter { $0.line?.kind == .alert }
        let first = alerted.first?.time ?? 0
        // The detector fires when the level has stayed above for 1 s (to the block), read at the next tick.
        #expect(first - Self.start >= 3.0 && first - Self.start <= 3.0 + 0.04, "\(first - Self.start)")
        #expect(alerted.first?.line?.text.hasPrefix("NOISE ALERT: the level is ") == true, "\(String(describing: alerted.first))")
        #expect(alerted.first?.line?.text.contains("above -30 dB for 1.0 s") == true)
        // Held at least NoiseAlertState.holdTime, then gone once the room is quiet again.
        let last = alerted.last?.time ?? 0
        #expect(last - first >= NoiseAlertState.holdTime - 0.04)
        #expect(run.lines.last?.line?.kind != .alert)
        #expect(state.alert.flashes(at: first + 0.1) && !state.alert.flashes(at: first + 0.6), "it flashes at first")
    }

    @Test func theMessageHoldsWhileTheRoomStaysLoud() {
        var (state, _) = Self.armedState()
        let run = Self.run([(1, Self.quiet), (10, { _ in -20 })], state: &state, settings: Self.settings(state))
        #expect(run.bells == 1)
        #expect(run.lines.last?.line?.kind == .alert, "8 s after the alert the level is still up: still shown")
    }
}
