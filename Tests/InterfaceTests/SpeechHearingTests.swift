import TestSupport
import Testing

@testable import Interface
@testable import Metering

/// What the speech detector hears, in the app: the `V` panel says it live, and while voice
/// activation listens for speech and has heard none, "too quiet" gives way to the room.
@Suite struct SpeechHearingTests {
    static func reading(
        hearsSpeech: Bool?, heardSpeechRecently: Bool = false, floor: Double? = -44.2, close: Bool = true,
        diagnosis: InputDiagnosis? = .tooQuiet
    ) -> EngineSnapshot {
        var snapshot = Fixtures.levels(recording: .idle)
        snapshot.diagnosis = diagnosis
        snapshot.voiceActivation = VoiceActivationSnapshot(
            phase: .listening, levelDB: -44, thresholdDB: -40, silence: 0, hangTime: 3, noiseFloorDB: floor,
            noiseIsClose: close, hearsSpeech: hearsSpeech, heardSpeechRecently: heardSpeechRecently)
        return snapshot
    }

    /// Armed (`v`), then ticks with `reading` until the arming notice has been readable.
    static func armed(width: Int = 80, height: Int = 24, _ reading: EngineSnapshot, keys: [Action] = []) -> AppState {
        Fixtures.state(
            width: width, height: height,
            [.key(.character("v")), .tick(time: Fixtures.now + 11, snapshot: reading),
             .tick(time: Fixtures.now + 15, snapshot: reading)] + keys)
    }

    static let scenes: [(String, @Sendable (Int, Int) -> AppState)] = [
        ("voice-settings-hears-speech", { armed(width: $0, height: $1, reading(hearsSpeech: true, heardSpeechRecently: true), keys: [.key(.character("V"))]) }),
        ("voice-settings-hears-noise", { armed(width: $0, height: $1, reading(hearsSpeech: false), keys: [.key(.character("V"))]) }),
        ("voice-brown-room-at-threshold", { armed(width: $0, height: $1, reading(hearsSpeech: false)) }),
    ]

    @Test(arguments: 0..<scenes.count)
    func scene(_ index: Int) {
        let (name, make) = Self.scenes[index]
        for (width, height) in [(80, 24), (40, 12), (1, 1)] {
            assertSnapshot(AppView.render(make(width, height)), named: "\(name)-\(width)x\(height)")
        }
    }

    /// A room at the threshold, no speech: the status line names the room, not "too quiet".
    @Test func aRoomWithoutSpeechShowsTheRoomsWarningNotTooQuiet() {
        let state = Self.armed(Self.reading(hearsSpeech: false))
        #expect(state.statusLine?.text == "Room noise -44 dB is close to the -40 dB threshold: raise it or press V")
        #expect(state.statusLine?.kind == .warning)
    }

    /// Speech heard lately that peaks low: "too quiet" is about it, and is said.
    @Test func quietSpeechIsStillTooQuiet() throws {
        let state = Self.armed(Self.reading(hearsSpeech: true, heardSpeechRecently: true))
        let text = try #require(state.statusLine?.text)
        #expect(text.hasPrefix("Too quiet"), "\(text)")
    }

    /// By the level alone (`vox.level_only = on`) the diagnosis is said as without voice activation.
    @Test func byLevelAloneTooQuietIsSaid() throws {
        let state = Self.armed(Self.reading(hearsSpeech: nil))
        let text = try #require(state.statusLine?.text)
        #expect(text.hasPrefix("Too quiet"), "\(text)")
    }

    /// Not armed: the diagnosis as always.
    @Test func withoutVoiceActivationTooQuietIsSaid() throws {
        var state = Fixtures.state(width: 80, height: 24)
        var reading = Fixtures.levels(recording: .idle)
        reading.diagnosis = .tooQuiet
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: reading))
        let text = try #require(state.statusLine?.text)
        #expect(text.hasPrefix("Too quiet"), "\(text)")
    }

    @Test func thePanelSaysWhatTheDetectorHears() {
        let speech = Self.armed(Self.reading(hearsSpeech: true, heardSpeechRecently: true), keys: [.key(.character("V"))])
        #expect(AppView.render(speech).lines().contains { $0.contains("Hears now: speech") })
        let noise = Self.armed(Self.reading(hearsSpeech: false), keys: [.key(.character("V"))])
        #expect(AppView.render(noise).lines().contains { $0.contains("Hears now: no speech") })
        let closed = Self.armed(Self.reading(hearsSpeech: false))
        #expect(!AppView.render(closed).lines().contains { $0.contains("Hears now") })
    }
}
