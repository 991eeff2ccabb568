import Vocabulary
import TestSupport
import Testing

@testable import Interface

/// 100 000 seeded random keys through the reducer, with a stand-in for the runner that
/// performs the effects the way the real one does (as actions back). Nothing may crash,
/// the selection stays in range, after each tick the recording and playback states are the
/// engine's, and nothing plays while recording.
@Suite struct ReducerFuzzTests {

    /// What the runner and engine would do with effects.
    struct Engine {
        var recording: RecordingState = .idle
        var frames: Int64 = 0
        var memos: [MemoRow] = Fixtures.memos
        var deleted: [MemoRow] = []
        var nextID: Int64 = 100
        var hasInput = true
        var voiceArmed = false
        var alertOn = false
        var captureOn = true
        var bells = 0
        /// The memo that plays, its play head in seconds, and whether it is paused.
        var playing: (memo: MemoRow, elapsed: Double, isPaused: Bool)?

        mutating func perform(_ effect: Effect) -> [Action] {
            switch effect {
            case .startRecording(let title):
                guard hasInput else { return [.failed(.noInputToRecord)] }
                recording = .recording
                frames = 0
                return [.recordingStarted(title: title)]
            case .pauseRecording: recording = .paused
            case .resumeRecording: recording = .recording
            case .stopRecording:
                guard recording != .idle else { return [] }
                recording = .idle
                let memo = Fixtures.memo(nextID, "Memo \(nextID)", minutesAgo: 0, seconds: Double(frames) / 48000, size: frames)
                nextID += 1
                memos.insert(memo, at: 0)
                return [.recordingSaved(memo), loaded]
            case .renameMemo(let id, let title):
                if let index = memos.firstIndex(where: { $0.id == id }) { memos[index].title = title }
                return [loaded]
            case .undoRename(let id, let title, let replacing):
                if let index = memos.firstIndex(where: { $0.id == id }), memos[index].title == replacing { memos[index].title = title }
                return [loaded]
            case .setMemoTags(let id, let tags, let starred):
                if let index = memos.firstIndex(where: { $0.id == id }) {
                    memos[index].tags = tags
                    memos[index].isStarred = starred
                }
                return [loaded]
            case .deleteMemo(let id):
                if let index = memos.firstIndex(where: { $0.id == id }) { deleted.insert(memos.remove(at: index), at: 0) }
                return [loaded]
            case .restoreMemo(let id):
                if let index = deleted.firstIndex(where: { $0.id == id }) { memos.append(deleted.remove(at: index)) }
                return [loaded]
            case .purgeMemo(let id):
                deleted.removeAll { $0.id == id }
                return [loaded]
            case .exportMemo(let id, let path, _):
                return memos.contains { $0.id == id } ? [.exported(ExportedCopy(title: "Memo \(id)", path: path))] : [.failed(.export(detail: "no memo \(id)"))]
            case .completeExportPath(let id, let typed):
                return [.exportPathCompletions(id: id, typed: typed, matches: [typed + "a.wav", typed + "b/"])]
            case .editMemo(let request):
                guard let index = memos.firstIndex(where: { $0.id == request.memoID }) else { return [.failed(.edit(title: request.title, detail: "gone")), loaded] }
                let original = memos.remove(at: index)
                deleted.insert(original, at: 0)
                var made: [MemoRow] = []
                let pieces = if case .split = request { 2 } else { 1 }
                for piece in 0..<pieces {
                    made.append(Fixtures.memo(nextID, original.title + " \(piece)", minutesAgo: 0, seconds: 25, size: 1))
                    nextID += 1
                }
                memos.insert(contentsOf: made, at: 0)
                let outcome = EditOutcome(
                    request: request, originalID: original.id, title: original.title, originalDuration: original.duration,
                    made: made, reencoded: false)
                return [.memoEdited(outcome), .waveformLoaded(memoID: made[0].id, nil), loaded]
            case .undoEdit(let originalID, let madeIDs):
                for id in madeIDs {
                    if let index = memos.firstIndex(where: { $0.id == id }) { deleted.insert(memos.remove(at: index), at: 0) }
                }
                if let index = deleted.firstIndex(where: { $0.id == originalID }) { memos.append(deleted.remove(at: index)) }
                return [loaded]
            case .listOutputs:
                return [.outputsListed([
                    OutputChoice(device: "default", description: "now"), OutputChoice(device: "null", description: "Discard"),
                ])]
            case .selectOutput:
                return []
            case .listInputs:
                return [.inputsListed(InputChoiceList(choices: [
                    InputChoice(source: .alsa(device: "default"), description: "Default"),
                    InputChoice(source: .tone(frequency: 440, peakDBFS: -12), description: "tone"),
                ], hidden: ["null", "lavrate"]))]
            case .armVoiceActivation:
                guard hasInput else { return [.failed(.noInputToRecord)] }
                voiceArmed = true
            case .setVoiceReplay: break
            case .disarmVoiceActivation:
                voiceArmed = false
            case .selectInput:
                hasInput = true
                voiceArmed = false
                var input = Fixtures.input
                input.hasCaptureMixer = true
                return [.inputOpened(input)]
            case .play(let memo, let start):
                playing = nil
                guard memo.duration > 20 else { return [.playbackFailed(.playbackNotStarted(title: memo.title, detail: "cannot play"))] }
                playing = (memo, min(start, memo.duration), false)
                return [.playbackStarted(memoID: memo.id, title: memo.title, duration: memo.duration, channels: 2)]
            case .pausePlayback: playing?.isPaused = true
            case .resumePlayback: playing?.isPaused = false
            case .seekPlayback(let seconds):
                if let current = playing { playing?.elapsed = min(max(current.elapsed + seconds, 0), current.memo.duration) }
            case .jumpPlayback(let seconds):
                if let current = playing { playing?.elapsed = min(max(seconds, 0), current.memo.duration) }
            case .adjustPlayback(let settings):
                #expect(PlaybackSettings.speedTenthsRange.contains(settings.speedTenths))
                #expect(PlaybackSettings.pitchRange.contains(settings.pitchSemitones))
                #expect(PlaybackSettings.volumeRange.contains(settings.volumePercent))
            case .addMarker(let memoID, let time):
                #expect(memoID == playing?.memo.id)
                #expect(time >= 0)
            case .labelMarker(_, let time, _):
                // The prompt may outlive the playback that opened it: the label still goes to the marker.
                #expect(time >= 0)
            case .loadMemoDetails(let memoID):
                return [.memoDetailsLoaded(MemoExtras(memoID: memoID, markers: [.init(time: 1, label: "a")], transcript: .missing))]
            case .markRecording:
                #expect(recording != .idle)
            case .stopPlayback: playing = nil
            case .setNoiseAlert(let parameters):
                alertOn = parameters != nil
            case .ringBell:
                bells += 1
            case .changeCaptureGain(let change):
                if change == .toggleSwitch { captureOn.toggle() }
                return [.captureGainRead(CaptureGainReading(control: "Capture", percent: 40, decibels: nil, isOn: captureOn), changed: true)]
            case .readCaptureGain:
                return [.captureGainRead(CaptureGainReading(control: "Capture", percent: 40, decibels: nil, isOn: captureOn), changed: false)]
            case .playStream:
                return [.streamUpdate(.buffering(seconds: 1)), .streamUpdate(.playing(name: "Radio", channels: 2, isLive: true))]
            case .stopStream:
                return []
            case .recordStream(_, let title):
                hasInput = true
                voiceArmed = false
                recording = .recording
                frames = 0
                return [.inputOpened(Fixtures.input), .recordingStarted(title: title)]
            case .quit:
                return []
            case .saveSettings(let changes):
                #expect(!changes.isEmpty)
                // A read-only config now and then: the reducer says it once.
                return nextID % 2 == 0 ? [.settingsNotSaved(.settingsNotSaved(detail: "config is read-only"))] : []
            case .openLibrary, .reloadLibrary:
                return [loaded]
            case .searchTranscripts(let query):
                // Every other memo "said" the filter, 30 s in.
                let matches = memos.filter { $0.id % 2 == 0 }.map { TranscriptMatch(memoID: $0.id, time: 30, snippet: "… \(query) …") }
                return [.transcriptMatchesFound(query: query, matches)]
            case .loadTranscript(let id):
                let words = (0..<40).map { SpokenWord(word: "word\($0)", start: Double($0) * 0.7, end: Double($0) * 0.7 + 0.5) }
                // (A finished transcript would ask for it again: not here, or this would never end.)
                return [.transcriptLoaded(memoID: id, id % 3 == 0 ? .missing : .words(words)),
                        .transcription(.started(memoID: id, title: "t", waiting: 1)),
                        .transcription(.progress(memoID: id, fraction: 0.4))]
            case .transcribeNewMemos:
                return []
            }
            return []
        }

        var loaded: Action { .libraryLoaded(memos: memos, deleted: deleted) }

        /// The player at one tick: the play head moves unless paused; at the end it finishes.
        mutating func playbackActions(time: Double) -> [Action] {
            guard let current = playing else { return [] }
            if !current.isPaused { playing?.elapsed += 1.0 / 30 }
            if current.elapsed >= current.memo.duration {
                playing = nil
                return [.playbackFinished]
            }
            let channel = ChannelLevel(average: -20, peak: -8)
            return [.playbackProgress(time: time, PlaybackSnapshot(elapsed: current.elapsed, channels: [channel, channel]))]
        }

        mutating func snapshot(_ generator: inout SplitMix64) -> EngineSnapshot? {
            guard hasInput else { return nil }
            if recording == .recording { frames += 1600 }
            let level = Float(Int.random(in: -160...0, using: &generator))
            let channel = ChannelLevel(average: level, peak: min(level + 6, 0))
            let phases: [VoiceActivationPhase] = [.calibrating, .listening, .recording, .replaying]
            let voice = voiceArmed
                ? VoiceActivationSnapshot(
                    phase: phases.randomElement(using: &generator) ?? .listening, levelDB: level, thresholdDB: -40,
                    silence: Double.random(in: 0...2, using: &generator), hangTime: 2)
                : nil
            let alert = alertOn
                ? NoiseAlertSnapshot(
                    alerts: Int.random(in: 0..<40, using: &generator) == 0 ? [NoiseAlertEvent(levelDB: Double(level), stayed: 1, inputTime: 3)] : [],
                    isArmed: Bool.random(using: &generator))
                : nil
            return EngineSnapshot(
                channels: [channel, channel], recordedFrames: frames, recording: recording, voiceActivation: voice,
                diagnosis: Int.random(in: 0..<20, using: &generator) == 0 ? .silent : nil, noiseAlert: alert)
        }
    }

    /// Every key of every screen's table (so a new key is in the fuzz at once), the keys
    /// prompts, pickers and confirmations take, and some the app does not know.
    static let keys: [Key] = Array(
        Set(
            KeyScreen.allCases.flatMap(\.rows).flatMap(\.keys) + [
                .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .enter, .escape, .backspace, .delete, .tab,
                .clearToStart, .other,
            ] + "yYpé漢😀\u{1B}w".map { Key.character($0) })
    ).sorted { "\($0)" < "\($1)" }

    @Test func hundredThousandRandomKeys() {
        var generator = SplitMix64(seed: 0x5EED_1234)
        var engine = Engine()
        var state = Fixtures.state(width: 80, height: 24)
        var time = Fixtures.now + 20
        for step in 0..<100_000 {
            var pending: [Action] = []
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<80:
                pending.append(.key(Self.keys.randomElement(using: &generator) ?? .other))
            case 80..<97:
                time += 1.0 / 30
                pending += engine.playbackActions(time: time)
                pending.append(.tick(time: time, snapshot: engine.snapshot(&generator)))
            case 97:
                pending.append(.resize(width: Int.random(in: 0...200, using: &generator), height: Int.random(in: 0...60, using: &generator)))
            case 98:
                engine.hasInput = false
                engine.voiceArmed = false
                if engine.recording != .idle { pending += engine.perform(.stopRecording) }
                pending.append(.inputFailed(.inputStopped(.alsa(device: "default"), reason: "unplugged")))
            default:
                pending.append(.failed(.libraryChange(detail: "something failed")))
            }
            while !pending.isEmpty {
                let action = pending.removeFirst()
                for effect in reduce(&state, action) {
                    // As the runner answers: the results, then `workFinished` for its work.
                    pending += engine.perform(effect) + (effect.isRunnerWork ? [.workFinished] : [])
                    // Quitting refuses every key from then on: go on as a new run of the app would.
                    if effect == .quit { state.isQuitting = false }
                }
                if case .tick = action {
                    #expect(state.recording == engine.recording, "step \(step)")
                    #expect(state.voice.isArmed == engine.voiceArmed, "step \(step)")
                    #expect(state.playback?.memoID == engine.playing?.memo.id, "step \(step)")
                    #expect(state.playback?.isPaused == engine.playing?.isPaused, "step \(step)")
                }
                #expect(!(engine.voiceArmed && engine.recording != .idle), "never both at once: step \(step)")
                #expect(state.playback == nil || state.recording == .idle, "nothing plays while recording, step \(step)")
            }
            #expect(state.work.isEmpty, "every piece of work was answered: step \(step)")
            let count = state.visibleMemos.count
            if count == 0 {
                #expect(state.selection == 0)
            } else {
                #expect((0..<count).contains(state.selection), "step \(step)")
            }
            if step % 997 == 0 {
                let screen = AppView.render(state)
                #expect(screen.lines().count == state.height)
            }
        }
    }
}
