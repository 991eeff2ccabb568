import TestSupport
import Vocabulary
import Testing

@testable import Interface

/// Work the effect runner does beside the loop: the reducer knows what is in flight,
/// shows it on the status line, and refuses, queues or asks about keys that meet it.
@Suite struct WorkInFlightTests {
    /// A state recording "Lecture", as it is once the runner has started the recorder.
    static func recording() -> AppState {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("r")))
        _ = reduce(&state, .recordingStarted(title: "Lecture"))
        _ = reduce(&state, .workFinished)
        _ = reduce(&state, .tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .recording, frames: 48000)))
        return state
    }

    /// The state after `s`: the save runs on the runner.
    static func saving() -> AppState {
        var state = recording()
        #expect(reduce(&state, .key(.character("s"))) == [.stopRecording])
        return state
    }

    @Test func theAppOpensItsInputAndLibraryOnTheRunnerAndTheTableSaysItIsLoading() {
        var state = AppState(width: 80, height: 24, now: Fixtures.now)
        #expect(reduce(&state, .launched(input: .alsa(device: "default"))) == [.selectInput(source: .alsa(device: "default")), .openLibrary])
        #expect(state.work.map(\.kind) == [.openingInput(name: .alsa(device: "default")), .openingLibrary])
        #expect(state.isLibraryLoading)
        #expect(AppView.render(state).lines().contains { $0.contains("Loading the library…") })
        _ = reduce(&state, .inputOpened(Fixtures.input))
        _ = reduce(&state, .workFinished)
        #expect(state.work.map(\.kind) == [.openingLibrary])
        // `r` before the library is open is queued behind it (the runner does one thing at a time).
        let time = CivilTime(seconds: state.now, utcOffset: 0)
        #expect(reduce(&state, .key(.character("r"))) == [.startRecording(title: "Memo \(time.dateText) \(time.timeWithSecondsText)")])
        #expect(state.status?.text == "Recording starts once the library is open.")
        _ = reduce(&state, .libraryLoaded(memos: Fixtures.memos, deleted: []))
        _ = reduce(&state, .workFinished)
        #expect(!state.isLibraryLoading)
        #expect(state.work.map(\.kind) == [.startingRecording])
        #expect(!AppView.render(state).lines().contains { $0.contains("Loading the library") })
    }

    @Test func whileTheRecordingIsBeingStartedRAndSAreRefusedWithAReason() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("r")))
        #expect(state.work.map(\.kind) == [.startingRecording])
        #expect(reduce(&state, .key(.character("r"))) == [])
        #expect(state.status?.text == "The recording is being started; r pauses it once the timer runs.")
        #expect(reduce(&state, .key(.character("s"))) == [])
        #expect(state.status?.text == "The recording is being started; press s again once the timer runs.")
        #expect(reduce(&state, .key(.character("i"))) == [])
        #expect(state.mode == .browsing)
        #expect(state.work.count == 1, "nothing was queued")
    }

    @Test func stopIsTrackedAsSavingTheMemoAndASecondStopIsRefused() {
        var state = Self.saving()
        #expect(state.recording == .idle, "the recording is detached at once")
        #expect(state.work.map(\.kind) == [.saving(title: "Lecture")])
        _ = reduce(&state, .tick(time: state.now + 1, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.statusLine?.text == "Saving “Lecture”… 1 s")
        #expect(reduce(&state, .key(.character("s"))) == [])
        #expect(state.statusLine?.text == "Already saving “Lecture”.", "the refusal is read before the work's line")
        _ = reduce(&state, .tick(time: state.now + StatusMessage.infoLifetime, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.statusLine?.text == "Saving “Lecture”… 5 s", "then the work's line comes back")
        // A save long enough to be on the status line refuses a new recording, saying how far it is.
        _ = reduce(&state, .workProgress(fraction: 0.4, stage: "encoding MP3"))
        #expect(reduce(&state, .key(.character("r"))) == [])
        #expect(state.status?.text == "Still saving the last memo; press r again once it is saved.")
        _ = reduce(&state, .tick(time: state.now + StatusMessage.infoLifetime, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.statusLine?.text == "Saving “Lecture”… encoding MP3, 40 %", "then how far the save is")
        #expect(state.work.map(\.kind) == [.saving(title: "Lecture")], "nothing was queued")
    }

    @Test func aNewRecordingIsQueuedBehindASaveThatIsNotYetOnTheStatusLine() {
        var state = Self.saving()
        _ = reduce(&state, .tick(time: state.now + 0.3, snapshot: Fixtures.levels(recording: .idle)))
        let effects = reduce(&state, .key(.character("r")))
        #expect(effects.count == 1)
        #expect(state.status?.text == "Recording starts once “Lecture” is saved.")
        #expect(state.work.map(\.kind) == [.saving(title: "Lecture"), .startingRecording])
    }

    @Test func longWorkShowsOnTheStatusLineWithItsStageAndProgress() {
        var state = Self.saving()
        let started = state.now
        _ = reduce(&state, .tick(time: started + 0.3, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.statusLine?.text != "Saving “Lecture”…", "under half a second, nothing is said")
        _ = reduce(&state, .tick(time: started + 0.6, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.statusLine?.text == "Saving “Lecture”…")
        _ = reduce(&state, .tick(time: started + 3.2, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.statusLine?.text == "Saving “Lecture”… 3 s")
        _ = reduce(&state, .workProgress(fraction: nil, stage: "finishing the file"))
        #expect(state.statusLine?.text == "Saving “Lecture”… finishing the file, 3 s")
        _ = reduce(&state, .workProgress(fraction: 0.4, stage: "encoding MP3"))
        #expect(state.statusLine?.text == "Saving “Lecture”… encoding MP3, 40 %")
        #expect(AppView.render(state).lines().contains { $0.contains("Saving “Lecture”… encoding MP3, 40 %") })
        // The last frame encoded is not the end: 99 % until the answer comes (a clean-clone run
        // read "encoding MP3, 100 %" while an edit's files were still being put in place).
        _ = reduce(&state, .workProgress(fraction: 1, stage: "encoding MP3"))
        #expect(state.statusLine?.text == "Saving “Lecture”… encoding MP3, 99 %")
        // The meter keeps moving: ticks still reach the meters while the save runs.
        _ = reduce(&state, .tick(time: started + 3.3, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.meters.first?.average == -18.2)
        let saved = Fixtures.memo(99, "Lecture", minutesAgo: 0, seconds: 1, size: 100)
        _ = reduce(&state, .recordingSaved(saved))
        _ = reduce(&state, .workFinished)
        #expect(state.work.isEmpty)
        #expect(state.mode == .renaming(id: 99, field: TextField("Lecture", maximumLength: state.titleMaximumLength, selected: true)))
    }

    @Test func aSaveThatAnswersWhileAnotherPromptIsOpenDoesNotTakeItAway() {
        var state = Self.saving()
        _ = reduce(&state, .key(.character("/")))
        _ = reduce(&state, .recordingSaved(Fixtures.memo(99, "Lecture", minutesAgo: 0, seconds: 1, size: 100)))
        #expect(state.mode == .filtering(TextField("")), "the filter being typed stays")
        #expect(state.status?.text.hasPrefix("Saved “Lecture”") == true)
    }

    @Test func quitDuringASaveAsksThenWaitsAndRefusesKeysMeanwhile() {
        var state = Self.saving()
        #expect(reduce(&state, .key(.character("q"))) == [])
        #expect(state.mode == .confirmingQuit)
        #expect(AppView.render(state).lines().contains { $0.contains("Saving “Lecture”… quit when done? (y/N)") })
        #expect(reduce(&state, .key(.character("n"))) == [])
        #expect(state.mode == .browsing)
        #expect(!state.isQuitting)
        _ = reduce(&state, .key(.character("q")))
        #expect(reduce(&state, .key(.character("y"))) == [.quit], "the quit waits behind the save on the runner")
        #expect(state.isQuitting)
        #expect(reduce(&state, .key(.character("r"))) == [])
        #expect(state.status?.text == "Saving “Lecture”… The app quits when it is done.")
        _ = reduce(&state, .tick(time: state.now + 2, snapshot: Fixtures.levels(recording: .idle)))
        #expect(state.statusLine?.text == "Saving “Lecture”… 2 s Quitting when done.")
    }

    @Test func quitWhileRecordingStopsSavesThenQuits() {
        var state = Self.recording()
        _ = reduce(&state, .key(.character("q")))
        #expect(AppView.render(state).lines().contains { $0.contains("Recording. Stop, save and quit? (y/N)") })
        #expect(reduce(&state, .key(.character("y"))) == [.stopRecording, .quit])
        #expect(state.work.map(\.kind) == [.saving(title: "Lecture")])
    }

    @Test func quitWithNothingInFlightQuitsAtOnce() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("q"))) == [.quit])
    }

    @Test func libraryChangesAreQueuedWithTheirTitles() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("d"))) == [.deleteMemo(id: 1)])
        _ = reduce(&state, .key(.character("e")))
        _ = reduce(&state, .key(.clearToStart))
        for character in "Parser" { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.enter)) == [.renameMemo(id: 2, title: "Parser")])
        #expect(state.work.map(\.kind) == [.deleting(title: "Standup notes"), .renaming(title: "Parser")])
        #expect(state.memos.first?.title == "Parser", "the table shows the change before the runner has made it")
        _ = reduce(&state, .workProgress(fraction: 0.5, stage: nil))
        #expect(state.work[0].fraction == 0.5, "progress is the oldest's: the runner does it first")
        #expect(state.work[1].fraction == nil)
        _ = reduce(&state, .workFinished)
        #expect(state.work.map(\.kind) == [.renaming(title: "Parser")])
        _ = reduce(&state, .key(.character("t")))
        _ = reduce(&state, .libraryLoaded(memos: Array(Fixtures.memos.dropFirst()), deleted: [Fixtures.memos[0]]))
        _ = reduce(&state, .key(.character("p")))
        #expect(reduce(&state, .key(.character("y"))) == [.purgeMemo(id: 1)])
        #expect(state.work.last?.kind == .purging(title: "Standup notes"))
    }

    @Test func choosingAnInputClosesTheOldOneAtOnceAndRefusesAnotherMeanwhile() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("i"))) == [.listInputs])
        _ = reduce(&state, .inputsListed(InputChoiceList(choices: [InputChoice(source: .tone(frequency: 440, peakDBFS: -12), description: "tone")])))
        _ = reduce(&state, .workFinished)
        #expect(reduce(&state, .key(.enter)) == [.selectInput(source: .tone(frequency: 440, peakDBFS: -12))])
        #expect(state.input == nil && state.meters.isEmpty, "no frozen meter while the new input opens")
        #expect(reduce(&state, .key(.character("i"))) == [])
        #expect(state.status?.text == "tone:440@-12 is being opened.")
        #expect(reduce(&state, .key(.character("r"))) == [])
        #expect(state.status?.text == "tone:440@-12 is being opened; press r once the meter moves.")
        _ = reduce(&state, .inputOpened(Fixtures.input))
        _ = reduce(&state, .workFinished)
        #expect(state.work.isEmpty)
        #expect(reduce(&state, .key(.character("r"))).count == 1)
    }

    @Test func onlySlowEffectsAreRunnerWork() {
        #expect(Effect.stopRecording.isRunnerWork)
        #expect(Effect.openLibrary.isRunnerWork)
        #expect(Effect.play(Fixtures.memos[0]).isRunnerWork)
        #expect(!Effect.pauseRecording.isRunnerWork)
        #expect(!Effect.seekPlayback(by: 5).isRunnerWork)
        #expect(!Effect.quit.isRunnerWork, "the quit is a barrier behind the work, not work of its own")
    }
}
