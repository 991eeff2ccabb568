@testable import VoiceActivation
import Testing

@testable import Audio

/// The noise alert's decisions on synthetic block sequences (10 ms blocks at 48 kHz).
@Suite struct LevelAlertTests {
    static let rate = 48_000
    static let block = 480

    /// Feeds `seconds` of blocks whose RMS (dBFS) comes from `level(blockIndex)`.
    static func feed(_ alert: inout LevelAlert, position: inout Int, seconds: Double, level: (Int) -> Double) -> [LevelAlert.Alert] {
        var alerts: [LevelAlert.Alert] = []
        let end = position + Int(seconds * Double(rate))
        var index = 0
        while position < end {
            let frames = min(block, end - position)
            if let fired = alert.consume(rms: VoiceActivation.amplitude(level(index)), frames: frames, firstFrame: position) {
                alerts.append(fired)
            }
            position += frames
            index += 1
        }
        return alerts
    }

    static func quiet(_: Int) -> Double { -60 }
    /// Speech-like: 250 ms syllables at −20 dB with 100 ms gaps at −60, and a 250 ms pause every 1.4 s.
    static func speech(_ index: Int) -> Double { index % 140 >= 115 ? -60 : (index % 35 < 25 ? -20 : -60) }

    @Test func aKnockShorterThanTheDurationDoesNotAlert() {
        var alert = LevelAlert(settings: .init(thresholdDB: -35, duration: 1), sampleRate: Self.rate)
        var position = 0
        var alerts = Self.feed(&alert, position: &position, seconds: 2, level: Self.quiet)
        alerts += Self.feed(&alert, position: &position, seconds: 0.3, level: { _ in -6 })
        alerts += Self.feed(&alert, position: &position, seconds: 3, level: Self.quiet)
        #expect(alerts.isEmpty)
        #expect(alert.isArmed)
    }

    @Test func twoSecondsOfSpeechAlertExactlyOnceAfterTheDuration() {
        var alert = LevelAlert(settings: .init(thresholdDB: -35, duration: 1), sampleRate: Self.rate)
        var position = 0
        _ = Self.feed(&alert, position: &position, seconds: 2, level: Self.quiet)
        let onset = position
        var alerts = Self.feed(&alert, position: &position, seconds: 2, level: Self.speech)
        alerts += Self.feed(&alert, position: &position, seconds: 2, level: Self.quiet)
        #expect(alerts.count == 1)
        let fired = alerts.first
        #expect(fired?.startFrame == onset)
        #expect(fired?.frame == onset + Self.rate, "fires when it has stayed above for 1 s, to the block")
        #expect((fired?.levelDB ?? -160) > -35)
    }

    @Test func itReArmsOnlyAfterFallingUnderTheHysteresisForLongerThanAWordGap() {
        var alert = LevelAlert(settings: .init(thresholdDB: -35, duration: 0.5), sampleRate: Self.rate)
        var position = 0
        #expect(Self.feed(&alert, position: &position, seconds: 1, level: { _ in -20 }).count == 1)
        // Hovering between the threshold and 6 dB under it: no new alert, not re-armed.
        #expect(Self.feed(&alert, position: &position, seconds: 2, level: { index in index % 20 < 10 ? -30 : -38 }).isEmpty)
        #expect(alert.isArmed == false)
        // 0.2 s under −41: still a gap inside the same crossing.
        _ = Self.feed(&alert, position: &position, seconds: 0.2, level: { _ in -60 })
        #expect(Self.feed(&alert, position: &position, seconds: 1, level: { _ in -20 }).isEmpty)
        // Quiet for a second: re-armed, and the next loud second alerts again.
        _ = Self.feed(&alert, position: &position, seconds: 1, level: Self.quiet)
        #expect(alert.isArmed)
        #expect(Self.feed(&alert, position: &position, seconds: 1, level: { _ in -20 }).count == 1)
    }

    @Test func withoutADurationTheFirstBlockAboveAlerts() {
        var alert = LevelAlert(settings: .init(thresholdDB: -35), sampleRate: Self.rate)
        var position = 0
        _ = Self.feed(&alert, position: &position, seconds: 1, level: Self.quiet)
        let alerts = Self.feed(&alert, position: &position, seconds: 0.05, level: { _ in -6 })
        #expect(alerts.count == 1)
        #expect(alerts.first?.frame == Self.rate + Self.block)
    }
}
