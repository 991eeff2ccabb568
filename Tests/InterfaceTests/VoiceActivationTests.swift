import TestSupport
import Testing

@testable import Interface

/// Voice activation in the app: `v` arms and disarms, readings arrive in ticks, kept
/// takes join the table, `V` edits the parameters; and how it looks.
@Suite struct VoiceActivationTests {
    static func reading(
        _ phase: VoiceActivationPhase, silence: Double = 0, floor: Double? = nil, close: Bool = false
    ) -> EngineSnapshot {
        var snapshot = Fixtures.levels(recording: .idle)
        snapshot.voiceActivation = VoiceActivationSnapshot(
            phase: phase, levelDB: -30, thresholdDB: -40, silence: silence, hangTime: 2, noiseFloorDB: floor,
            noiseIsClose: close)
        return snapshot
    }

    /// After `v` and one tick with the detector in `phase`.
    static func armed(
        width: Int, height: Int, usesColor: Bool = true, _ phase: VoiceActivationPhase, silence: Double = 0,
        floor: Double? = nil, close: Bool = false
    ) -> AppState {
        Fixtures.state(
            width: width, height: height, usesColor: usesColor,
            [.key(.character("v")), .tick(time: Fixtures.now + 11, snapshot: reading(phase, silence: silence, floor: floor, close: close))])
    }

    static let scenes: [(String, @Sendable (Int, Int) -> AppState)] = [
        ("voice-armed", { armed(width: $0, height: $1, .listening) }),
        ("voice-countdown", { armed(width: $0, height: $1, .recording, silence: 1.2) }),
        ("voice-countdown-no-color", { armed(width: $0, height: $1, usesColor: false, .recording, silence: 1.2) }),
        ("voice-quiet-room", { armed(width: $0, height: $1, .listening, floor: -62) }),
        ("voice-noisy-room", { armed(width: $0, height: $1, .listening, floor: -43.2, close: true) }),
        ("voice-settings", { Fixtures.state(width: $0, height: $1, [.key(.character("V")), .key(.down), .key(.right)]) }),
        ("voice-replaying", { armed(width: $0, height: $1, .replaying) }),
    ]

    @Test(arguments: 0..<scenes.count)
    func scene(_ index: Int) {
        let (name, make) = Self.scenes[index]
        for (width, height) in [(80, 24), (40, 12), (1, 1)] {
            assertSnapshot(AppView.render(make(width, height)), named: "\(name)-\(width)x\(height)")
        }
    }

    /// The header's timer counts a voice take while it records, and is back at zero when the
    /// detector listens again (it stayed at 00:00:00 during takes before).
    @Test func headerTimerCountsTheTakeInProgress() {
        var state = Fixtures.state(width: 80, height: 24, [.key(.character("v"))])
        var snapshot = Self.reading(.recording, silence: 0.5)
        snapshot.voiceActivation?.takeFrames = 48_000 * 75
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: snapshot))
        #expect(AppView.render(state).lines()[0].contains("00:01:15"))
        _ = reduce(&state, .tick(time: Fixtures.now + 12, snapshot: Self.reading(.listening)))
        #expect(AppView.render(state).lines()[0].contains("00:00:00"))
    }

    @Test func vArmsWithTheSessionParametersAndAgainDisarms() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("v"))) == [.armVoiceActivation(VoiceParameters())])
        #expect(state.voice.isArmed)
        #expect(state.status?.text.contains("Voice activation on") == true)
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Self.reading(.recording, silence: 0.5)))
        #expect(state.voice.isRecordingTake)
        #expect(reduce(&state, .key(.character("v"))) == [.disarmVoiceActivation])
        #expect(!state.voice.isArmed)
        #expect(state.status?.text == "Voice activation off; the take in progress is kept.")
    }

    @Test func theEngineIsTheTruth() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("v")))
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Self.reading(.listening)))
        _ = reduce(&state, .tick(time: Fixtures.now + 12, snapshot: Fixtures.levels(recording: .idle)))
        #expect(!state.voice.isArmed, "once read, a tick without a voice reading means it is off")
        _ = reduce(&state, .key(.character("v")))
        _ = reduce(&state, .inputFailed(.inputStopped(.alsa(device: "default"), reason: "unplugged")))
        #expect(!state.voice.isArmed)
    }

    @Test func manualRecordingAndVoiceActivationRefuseEachOther() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("v")))
        #expect(reduce(&state, .key(.character("r"))) == [])
        #expect(state.status?.text == VoiceKeys.recordRefusal)

        state = Fixtures.state(width: 80, height: 24, [.tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .recording))])
        #expect(reduce(&state, .key(.character("v"))) == [])
        #expect(state.status?.text.hasPrefix("A recording is running") == true)
        #expect(!state.voice.isArmed)

        state = Fixtures.state(width: 80, height: 24, input: nil)
        #expect(reduce(&state, .key(.character("v"))) == [])
        #expect(state.status?.text.hasPrefix("No input is open") == true)
    }

    @Test func sDisarmsAndQuitAsksDuringATake() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("v")))
        #expect(reduce(&state, .key(.character("s"))) == [.disarmVoiceActivation])
        _ = reduce(&state, .key(.character("v")))
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Self.reading(.recording)))
        #expect(reduce(&state, .key(.character("q"))) == [])
        #expect(state.mode == .confirmingQuit)
        // Quitting closes the input, which keeps the take: no manual recording to stop.
        #expect(reduce(&state, .key(.character("y"))) == [.quit])
    }

    @Test func aKeptTakeJoinsTheTableWithoutMovingTheSelection() {
        var state = Fixtures.state(width: 80, height: 24, [.key(.down)])
        let selected = state.selectedMemo?.id
        let take = Fixtures.memo(50, "Memo 2026-11-29 14:04:58", minutesAgo: 0.1, seconds: 3, size: 40_000)
        #expect(reduce(&state, .voiceTakeSaved(take)) == [.reloadLibrary])
        #expect(state.memos.first?.id == 50, "newest first")
        #expect(state.selectedMemo?.id == selected)
        #expect(state.mode == .browsing, "no rename prompt: takes keep their start-time titles")
        #expect(state.status?.text == "Saved “Memo 2026-11-29 14:04:58” (00:00:03).")
        _ = reduce(&state, .voiceTakeSaved(take))
        #expect(state.memos.filter { $0.id == 50 }.count == 1)
    }

    @Test func theSettingsPanelEditsWithinRangesAndReArms() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("V")))
        #expect(state.mode == .voiceSettings(.voice(.threshold)))
        for _ in 0..<5 { _ = reduce(&state, .key(.character("-"))) }
        #expect(state.voice.parameters.thresholdDB == -45)
        for _ in 0..<100 { _ = reduce(&state, .key(.right)) }
        #expect(state.voice.parameters.thresholdDB == 0, "clamped at 0 dBFS")
        _ = reduce(&state, .key(.pageDown))
        _ = reduce(&state, .key(.pageDown))
        #expect(state.voice.parameters.thresholdDB == -20)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.character("+")))
        #expect(state.voice.parameters.silence == 3.1)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        for _ in 0..<10 { _ = reduce(&state, .key(.left)) }
        #expect(state.voice.parameters.preRoll == 0, "clamped at 0 s")
        for _ in 0..<5 { _ = reduce(&state, .key(.down)) }
        #expect(state.mode == .voiceSettings(.alert(.hold)), "stays on the last field")
        #expect(reduce(&state, .key(.escape)) == [], "not armed: nothing to re-arm")
        #expect(state.mode == .browsing)

        let edited = state.voice.parameters
        #expect(reduce(&state, .key(.character("v"))) == [.armVoiceActivation(edited)], "v arms with the edited values")
        _ = reduce(&state, .key(.character("V")))
        #expect(reduce(&state, .key(.enter)) == [], "unchanged: no re-arm")
        _ = reduce(&state, .key(.character("V")))
        _ = reduce(&state, .key(.left))
        var expected = edited
        expected.thresholdDB -= 1
        #expect(reduce(&state, .key(.character("V"))) == [.armVoiceActivation(expected)], "changed while listening: re-armed")

        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Self.reading(.recording)))
        _ = reduce(&state, .key(.character("V")))
        _ = reduce(&state, .key(.left))
        #expect(reduce(&state, .key(.escape)) == [], "a take is being recorded: not cut short")
        #expect(state.status?.text.hasPrefix("A take is being recorded") == true)
    }

    @Test func theThresholdMarkSitsOnTheThresholdsLED() {
        let state = Self.armed(width: 80, height: 24, usesColor: false, .listening)
        let screen = AppView.render(state)
        let row = screen.lines()[1]
        let geometry = MeterGeometry(width: 80)
        let index = Int(state.meterScale.value(forPower: -40) * Float(geometry.ledCount))
        let column = MeterGeometry.labelWidth + index * geometry.ledWidth
        #expect(Array(row)[column] == "┃", "\(row)")
        #expect(row.filter { $0 == "┃" }.count == 1)
    }

    /// The floor's mark sits on its LED beside the threshold's; a floor within 10 dB of the
    /// threshold puts the warning on the status line, and a quiet room does not.
    @Test func theNoiseFloorIsMarkedAndAFloorCloseToTheThresholdIsSaid() {
        let noisy = Self.armed(width: 80, height: 24, usesColor: false, .listening, floor: -55, close: false)
        let row = AppView.render(noisy).lines()[1]
        let geometry = MeterGeometry(width: 80)
        let index = Int(noisy.meterScale.value(forPower: -55) * Float(geometry.ledCount))
        #expect(Array(row)[MeterGeometry.labelWidth + index * geometry.ledWidth] == "┆", "\(row)")
        #expect(row.filter { $0 == "┃" }.count == 1)
        #expect(noisy.statusLine?.kind == .info, "the notice that voice activation is on")
        var close = Self.armed(width: 80, height: 24, usesColor: false, .listening, floor: -43.2, close: true)
        #expect(close.statusLine?.kind == .info, "the notice stays until it has been readable")
        _ = reduce(&close, .tick(time: Fixtures.now + 13, snapshot: Self.reading(.listening, floor: -43.2, close: true)))
        #expect(close.statusLine?.text == "Room noise -43 dB is close to the -40 dB threshold: raise it or press V")
        #expect(close.statusLine?.kind == .warning)
        #expect(AppView.render(close).lines()[1].contains("┃┆"), "a floor on the threshold's LED sits beside its mark")
        let lines = AppView.render(close).lines()
        #expect(lines.contains { $0.contains("Room noise -43 dB is close to the -40 dB threshold") }, "\(lines)")
        var quiet = noisy
        _ = reduce(&quiet, .tick(time: Fixtures.now + 13, snapshot: Self.reading(.listening, floor: -55)))
        #expect(quiet.statusLine?.kind != .warning)
    }

    /// The replay's two rows: Replay turns it on and off, Pitch moves a semitone a step within
    /// ±12 (dim while the replay is off); `v` arms with them, and changing only them while armed
    /// (even during a take) sets the replay without re-arming the detector.
    @Test func theReplayRowsTurnItOnSetThePitchAndChangeTheArmedOneWithoutReArming() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("V")))
        for _ in 0..<VoiceParameters.Field.allCases.count { _ = reduce(&state, .key(.down)) }
        #expect(state.mode == .voiceSettings(.replay(.replay)), "the replay's rows follow voice activation's")
        var lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("▶ Replay    ◀     off ▶   play each take back as it ends") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  Pitch          0 st     the replay's pitch in semitones") }, "\(lines)")
        let pitchRow = lines.firstIndex { $0.hasPrefix("  Pitch") } ?? 0
        #expect(AppView.render(state)[2, pitchRow].style == Theme(state).dim, "the pitch is dim while the replay is off")
        _ = reduce(&state, .key(.left))
        #expect(!state.voice.parameters.replay.isOn, "a step down keeps it off")
        _ = reduce(&state, .key(.right))
        #expect(state.voice.parameters.replay.isOn)
        _ = reduce(&state, .key(.down))
        for _ in 0..<20 { _ = reduce(&state, .key(.character("+"))) }
        #expect(state.voice.parameters.replay.pitchSemitones == 12, "clamped at +12")
        _ = reduce(&state, .key(.pageDown))
        _ = reduce(&state, .key(.pageDown))
        _ = reduce(&state, .key(.pageDown))
        #expect(state.voice.parameters.replay.pitchSemitones == -12, "clamped at -12")
        _ = reduce(&state, .key(.pageUp))
        for _ in 0..<9 { _ = reduce(&state, .key(.right)) }
        #expect(state.voice.parameters.replay.pitchSemitones == 7)
        lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("▶ Pitch     ◀   +7 st ▶") }, "\(lines)")
        #expect(reduce(&state, .key(.escape)) == [], "not armed: nothing to change")

        let replay = ReplayParameters(isOn: true, pitchSemitones: 7)
        #expect(reduce(&state, .key(.character("v"))) == [.armVoiceActivation(VoiceParameters(replay: replay))])
        #expect(state.status?.text.contains("each take is replayed 7 semitones higher") == true, "\(String(describing: state.status))")
        _ = reduce(&state, .key(.character("V")))
        for _ in 0...VoiceParameters.Field.allCases.count { _ = reduce(&state, .key(.down)) }
        _ = reduce(&state, .key(.left))
        let lower = ReplayParameters(isOn: true, pitchSemitones: 6)
        #expect(reduce(&state, .key(.escape)) == [.setVoiceReplay(lower)], "only the replay changed: not re-armed")
        #expect(state.voice.armedWith?.replay == lower)
        #expect(state.status?.text == "Replay on: each take is replayed 6 semitones higher as it ends.")

        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Self.reading(.recording)))
        _ = reduce(&state, .key(.character("V")))
        for _ in 0..<VoiceParameters.Field.allCases.count { _ = reduce(&state, .key(.down)) }
        _ = reduce(&state, .key(.left))
        #expect(reduce(&state, .key(.escape)) == [.setVoiceReplay(ReplayParameters(isOn: false, pitchSemitones: 6))], "during a take too")
        #expect(state.status?.text == "Replay off.")
        _ = reduce(&state, .key(.character("V")))
        _ = reduce(&state, .key(.left))
        for _ in 0..<VoiceParameters.Field.allCases.count { _ = reduce(&state, .key(.down)) }
        _ = reduce(&state, .key(.right))
        #expect(reduce(&state, .key(.escape)) == [.setVoiceReplay(lower)], "the threshold waits for the take's end, the replay does not")
        #expect(state.voice.armedWith?.thresholdDB == -40 && state.voice.parameters.thresholdDB == -41)
    }

    /// A tick that reads no detector yet (the runner is still attaching it after `v`) keeps
    /// what `v` armed with: the panel's change then re-arms. (It cleared it, and Esc after a
    /// change re-armed nothing, silently: a tmux test caught it 3 times in 6.)
    @Test func aTickBeforeTheDetectorIsAttachedDoesNotLoseWhatWasArmed() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("v")))
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.voice.isArmed && state.voice.armedWith == VoiceParameters(), "still arming: \(state.voice)")
        _ = reduce(&state, .tick(time: Fixtures.now + 12, snapshot: Self.reading(.listening)))
        _ = reduce(&state, .key(.character("V")))
        for _ in 0..<5 { _ = reduce(&state, .key(.right)) }
        #expect(reduce(&state, .key(.escape)) == [.armVoiceActivation(state.voice.parameters)])
        #expect(state.status?.text.hasPrefix("Voice activation re-armed at -35 dB") == true, "\(String(describing: state.status))")
        // Once the engine has read it, a tick without it is the detector gone: off.
        _ = reduce(&state, .tick(time: Fixtures.now + 13, snapshot: Self.reading(.listening)))
        _ = reduce(&state, .tick(time: Fixtures.now + 14, snapshot: Fixtures.levels(recording: .idle)))
        #expect(!state.voice.isArmed && state.voice.armedWith == nil)
        // An arm that fails leaves it off, saying why.
        _ = reduce(&state, .key(.character("v")))
        _ = reduce(&state, .voiceArmFailed(.voiceActivationNotArmed(detail: "no")))
        #expect(!state.voice.isArmed && state.voice.armedWith == nil && !state.voice.isArming)
        #expect(state.status?.text == "Cannot turn on voice activation: no")
    }

    /// The row of the take being recorded (its memo `recording` in the
    /// index, 0 s and 0 B there) counts its length and size; saved, the index's figures rule.
    @Test func theTakesRowCountsItsLengthAndSize() {
        var take = Fixtures.memo(77, "Memo 2026-11-29 14:05:10", minutesAgo: 0, seconds: 0, size: 0)
        take.state = .recording
        var state = Fixtures.state(width: 80, height: 24, memos: [take] + Fixtures.memos)
        _ = reduce(&state, .key(.character("v")))
        var snapshot = Self.reading(.recording, silence: 0.5)
        snapshot.voiceActivation?.takeFrames = 48_000 * 75
        snapshot.voiceActivation?.take = (memoID: 77, bytes: 2_345_678)
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: snapshot))
        let row = AppView.render(state).lines().first { $0.contains("Memo 2026-11-29") } ?? ""
        #expect(row.contains("00:01:15") && row.contains("2.3 MB"), "\(row)")
        _ = reduce(&state, .tick(time: Fixtures.now + 12, snapshot: Self.reading(.listening)))
        let after = AppView.render(state).lines().first { $0.contains("Memo 2026-11-29") } ?? ""
        #expect(after.contains("00:00:00") && after.contains("0 B"), "listening again: the index's row: \(after)")
    }

    /// In `V` the meter's `┃` follows the threshold as it is changed (it
    /// said "listening for -40 dB" the whole time: tuning was blind), and the line says the
    /// new one applies once the panel closes; with voice activation off the mark shows too.
    @Test func theMarkFollowsTheThresholdWhileThePanelChangesIt() {
        var state = Self.armed(width: 80, height: 24, .listening)
        let before = AppView.render(state).lines()
        let markColumn = { (lines: [String]) in lines[1].firstIndex(of: "┃").map { lines[1].distance(from: lines[1].startIndex, to: $0) } }
        _ = reduce(&state, .key(.character("V")))
        #expect(state.mode == .voiceSettings(.voice(.threshold)))
        #expect(AppView.render(state).lines()[3].contains("listening for -40 dB"), "unchanged: what listens")
        for _ in 0..<10 { _ = reduce(&state, .key(.right)) }
        let after = AppView.render(state).lines()
        #expect(after[3].contains("┃ -30 dB when V closes"), "\(after[3])")
        let was = markColumn(before), now = markColumn(after)
        #expect(was != nil && now != nil && now! > was!, "the mark moved right: \(before[1]) → \(after[1])")
        #expect(reduce(&state, .key(.escape)) == [.armVoiceActivation(state.voice.parameters)])
        #expect(state.voice.parameters.thresholdDB == -30)

        var off = Fixtures.state(width: 80, height: 24, [.key(.character("V"))])
        #expect(AppView.render(off).lines()[3].contains("┃ -40 dB when v arms it"), "\(AppView.render(off).lines()[3])")
        _ = reduce(&off, .key(.left))
        #expect(AppView.render(off).lines()[1].contains("┃"), "the mark shows while the panel is open")
        _ = reduce(&off, .key(.escape))
        #expect(!AppView.render(off).lines()[1].contains("┃") && !AppView.render(off).lines()[3].contains("┃"), "and goes with it")
    }

    /// While the take is replayed the line under the meter and, once the notice before it has
    /// been readable, the status line say so; listening again, they go.
    @Test func aReplayIsSaidUnderTheMeterAndOnTheStatusLine() {
        var state = Fixtures.state(width: 80, height: 24)
        state.voice.parameters.replay = ReplayParameters(isOn: true, pitchSemitones: -3)
        _ = reduce(&state, .key(.character("v")))
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Self.reading(.replaying)))
        #expect(AppView.render(state).lines()[3].hasSuffix("▶ replaying, not listening "))
        #expect(AppView.render(state).lines()[0].contains("◎ VOICE"))
        _ = reduce(&state, .tick(time: Fixtures.now + 13, snapshot: Self.reading(.replaying)))
        #expect(state.statusLine == StatusMessage(text: "Replaying the last take 3 semitones lower; not listening until it has played.", kind: .info))
        _ = reduce(&state, .tick(time: Fixtures.now + 14, snapshot: Self.reading(.listening)))
        #expect(state.statusLine?.text.hasPrefix("Replaying") != true)
        #expect(AppView.render(state).lines()[3].contains("listening for -40 dB"))
    }
}
