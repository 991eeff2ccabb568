import TestSupport
import Vocabulary
import Metering
import Testing

@testable import Interface

/// `o` plays a network stream (the URL prompt), `R` records it into a memo: the reducer's
/// part, with the player's reports given as the loop would give them.
@Suite struct StreamKeysTests {
    static let url = "http://127.0.0.1:8000/live/tone.mp3"

    static func browsing() -> AppState { Fixtures.state(width: 80, height: 24) }

    static func type(_ text: String, into state: inout AppState) {
        for character in text { _ = reduce(&state, .key(.character(character))) }
    }

    /// A stream opened through the prompt and playing, titled "Song 1".
    static func playing() -> AppState {
        var state = browsing()
        _ = reduce(&state, .key(.character("o")))
        type(url, into: &state)
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .streamUpdate(.buffering(seconds: 1)))
        _ = reduce(&state, .streamUpdate(.playing(name: "VoiceMemo Test Radio", channels: 2, isLive: true)))
        _ = reduce(&state, .streamUpdate(.title("Song 1")))
        return state
    }

    static func statusLine(_ state: AppState) -> String { state.statusLine?.text ?? "" }

    @Test func oOpensThePromptAndEnterPlaysTheStream() {
        var state = Self.browsing()
        #expect(reduce(&state, .key(.character("o"))) == [])
        #expect(state.mode == .openingStream(TextField("", maximumLength: StreamKeys.maximumURLLength)))
        Self.type(Self.url, into: &state)
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix(" Stream URL: http://127.0.0.1:8000/live/tone.mp3") }, "\(lines)")
        #expect(lines.last?.contains("⏎ play") == true && lines.last?.contains("Esc cancel") == true, "\(lines)")
        #expect(reduce(&state, .key(.enter)) == [.playStream(url: Self.url)])
        #expect(state.mode == .browsing)
        #expect(state.work.isEmpty, "the player connects on its own thread: nothing waits on the runner")
        #expect(state.stream?.phase == .connecting)
        #expect(Self.statusLine(state) == "Connecting to 127.0.0.1:8000…")
    }

    @Test(arguments: [
        ("", "Type the stream's URL (http:// or https://), or Esc to cancel."),
        ("   ", "Type the stream's URL (http:// or https://), or Esc to cancel."),
        ("ftp://127.0.0.1/x.mp3", "“ftp://127.0.0.1/x.mp3” is not an http:// or https:// URL: only those streams play."),
        ("127.0.0.1:8000/x.mp3", "“127.0.0.1:8000/x.mp3” is not an http:// or https:// URL: only those streams play."),
        ("http:///x.mp3", "“http:///x.mp3” names no server: type http://HOST[:PORT]/PATH."),
        ("https://:8000/x", "“https://:8000/x” names no server: type http://HOST[:PORT]/PATH."),
        ("http://host/a b.mp3", "A URL has no spaces: “http://host/a b.mp3”."),
    ])
    func aBadURLKeepsThePromptOpenAndSaysWhy(typed: String, problem: String) {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("o")))
        Self.type(typed, into: &state)
        #expect(reduce(&state, .key(.enter)) == [], "nothing is played")
        guard case .openingStream(let field) = state.mode else {
            Issue.record("the prompt closed: \(state.mode)")
            return
        }
        #expect(field.text == typed, "what was typed is kept to be corrected")
        #expect(state.promptProblem == problem)
        #expect(state.stream == nil)
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix(" " + String(problem.prefix(40))) }, "the problem shows above the prompt: \(lines)")
        // A key clears the problem; Esc leaves, playing nothing.
        _ = reduce(&state, .key(.character("x")))
        #expect(state.promptProblem == nil)
        #expect(reduce(&state, .key(.escape)) == [])
        #expect(state.mode == .browsing && state.stream == nil)
    }

    @Test func oOffersTheLastURLAgainSelected() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("o")))
        Self.type(Self.url, into: &state)
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .streamUpdate(.failed(.stream(detail: "HTTP 404 Not Found from 127.0.0.1:8000"))))
        _ = reduce(&state, .key(.character("o")))
        #expect(state.mode == .openingStream(TextField(Self.url, maximumLength: StreamKeys.maximumURLLength, selected: true)), "to correct a typo after a 404")
    }

    @Test func onATinyTerminalTheProblemShowsInsteadOfThePrompt() {
        var state = Fixtures.state(width: 30, height: 8)
        _ = reduce(&state, .key(.character("o")))
        _ = reduce(&state, .key(.enter))
        var lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix(" Type the stream's URL") }, "\(lines)")
        _ = reduce(&state, .key(.character("h")))
        lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix(" Stream URL: h") }, "\(lines)")
    }

    @Test func theStreamsNameAndTitleShowOnTheStatusLineAndItsLevelsOnTheMeter() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("o")))
        Self.type(Self.url, into: &state)
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .streamUpdate(.buffering(seconds: 1)))
        #expect(Self.statusLine(state) == "Buffering 127.0.0.1:8000…")
        _ = reduce(&state, .streamUpdate(.playing(name: "VoiceMemo Test Radio", channels: 2, isLive: true)))
        #expect(Self.statusLine(state) == "▶ VoiceMemo Test Radio · live 00:00:00 · s stops, R records")
        // A notice said meanwhile gives way to the new title at once.
        state.say("Clip indicator and peak hold reset.")
        _ = reduce(&state, .streamUpdate(.title("Song 2")))
        #expect(Self.statusLine(state) == "▶ Song 2 — VoiceMemo Test Radio · live 00:00:00 · s stops, R records")
        let level = ChannelLevel(average: -21, peak: -18)
        _ = reduce(&state, .streamProgress(time: Fixtures.now + 1, StreamSnapshot(played: 12.4, channels: [level, level])))
        #expect(Self.statusLine(state) == "▶ Song 2 — VoiceMemo Test Radio · live 00:00:12 · s stops, R records")
        #expect(state.shownMeters.count == 2)
        #expect(state.shownMeters.map(\.peak) == [-18, -18], "the stream's levels, not the input's")
        #expect(state.shownMeterMode == .digital)
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("rms  -21.0  pk  -18.0") }, "the meter rows show the stream's level: \(lines)")
        #expect(lines.last?.hasPrefix(" s stop  R record it  o other stream") == true, "\(lines)")
        // The input's own readings do not replace them.
        _ = reduce(&state, .tick(time: Fixtures.now + 2, snapshot: Fixtures.levels(recording: .idle, diagnosis: .silent)))
        #expect(state.shownMeters.map(\.peak) == [-18, -18])
        #expect(Self.statusLine(state).hasPrefix("▶ Song 2 — VoiceMemo Test Radio"), "the input's diagnosis does not cover the stream")
    }

    @Test(arguments: [Key.character("s"), .character(" "), .escape])
    func sSpaceAndEscStopTheStream(key: Key) {
        var state = Self.playing()
        #expect(reduce(&state, .key(key)) == [.stopStream])
        #expect(state.stream == nil)
        #expect(Self.statusLine(state) == "Stopped VoiceMemo Test Radio after 00:00:00.")
        #expect(state.shownMeters.map(\.peak) == state.meters.map(\.peak), "the input's levels again")
    }

    @Test func escClearsTheFilterBeforeItStopsTheStream() {
        var state = Self.playing()
        state.filter = "notes"
        #expect(reduce(&state, .key(.escape)) == [])
        #expect(state.filter.isEmpty && state.stream != nil)
    }

    @Test(arguments: [
        "HTTP 404 Not Found from 127.0.0.1:8000",
        "cannot connect to 127.0.0.1:8000: Connection refused",
        "127.0.0.1:8000 replied with an HTML page (text/html) for http://127.0.0.1:8000/html, not an audio stream",
        "no data from 127.0.0.1:8000 for 10 s: timed out (--timeout)",
    ])
    func aStreamThatCannotPlayEndsWithItsOwnMessage(message: String) {
        var state = Self.browsing()
        let memos = state.memos
        _ = reduce(&state, .key(.character("o")))
        Self.type(Self.url, into: &state)
        _ = reduce(&state, .key(.enter))
        #expect(reduce(&state, .streamUpdate(.failed(.stream(detail: message)))) == [])
        #expect(state.stream == nil)
        #expect(state.statusLine == StatusMessage(text: "Cannot play the stream: \(message).", kind: .error))
        #expect(state.memos == memos && state.input == Fixtures.input, "nothing lost, the input untouched")
    }

    @Test func aStreamThatFailsWhilePlayingSaysItStopped() {
        var state = Self.playing()
        _ = reduce(&state, .streamUpdate(.failed(.stream(detail: "the connection to 127.0.0.1:8000 dropped before the stream's end"))))
        #expect(state.statusLine?.text == "The stream stopped: the connection to 127.0.0.1:8000 dropped before the stream's end.")
    }

    @Test func rIsRefusedWhenNothingStreams() {
        var state = Self.browsing()
        #expect(reduce(&state, .key(.character("R"))) == [])
        #expect(Self.statusLine(state) == "Nothing is streaming to record. Press o to open a stream's URL, then R.")
        #expect(state.input == Fixtures.input && state.recording == .idle)
        // While it connects: not yet.
        _ = reduce(&state, .key(.character("o")))
        Self.type(Self.url, into: &state)
        _ = reduce(&state, .key(.enter))
        #expect(reduce(&state, .key(.character("R"))) == [])
        #expect(Self.statusLine(state) == "The stream is not playing yet; press R once it plays.")
    }

    @Test func rIsRefusedWhileRecordingTheInput() {
        var state = Self.playing()
        _ = reduce(&state, .recordingStarted(title: "Memo", memoID: 5))
        #expect(reduce(&state, .key(.character("R"))) == [])
        #expect(Self.statusLine(state).hasPrefix("Already recording. Stop it (s)"))
    }

    @Test func rRecordsTheStreamSStopsAndNamesItAndTheInputComesBack() {
        var state = Self.playing()
        #expect(reduce(&state, .key(.character("R"))) == [.recordStream(url: Self.url, title: "Song 1")])
        #expect(state.work.map(\.kind) == [.startingRecording], "opened and started on the runner")
        #expect(state.input == nil, "the old input closes at once")
        let streamInput = InputDescription(name: .url(Self.url), sampleRate: 48000, channels: 2, recordingFormat: "FLAC")
        _ = reduce(&state, .inputOpened(streamInput))
        _ = reduce(&state, .recordingStarted(title: "Song 1", memoID: 7))
        _ = reduce(&state, .workFinished)
        #expect(state.recording == .recording)
        #expect(Self.statusLine(state) == "Recording “Song 1”.")
        // The stream goes on playing (what is heard) while its recording runs.
        #expect(reduce(&state, .key(.character(" "))) == [])
        #expect(Self.statusLine(state) == "Recording the stream: s stops the recording first.")
        #expect(state.stream != nil)
        #expect(reduce(&state, .key(.character("s"))) == [.stopRecording])
        guard case .renaming(7, let field) = state.mode else {
            Issue.record("no title prompt: \(state.mode)")
            return
        }
        #expect(field.text == "Song 1", "the title prompt offers the stream's title")
        _ = reduce(&state, .key(.escape))
        let saved = Fixtures.memo(7, "Song 1", minutesAgo: 0, seconds: 4, size: 100)
        _ = reduce(&state, .recordingSaved(saved))
        _ = reduce(&state, .workFinished)
        #expect(state.memos.first?.id == 7)
        #expect(Self.statusLine(state) == "Saved “Song 1” (00:00:04).")
        #expect(state.stream?.title == "Song 1", "still playing")
        // Stopping the stream opens the input there was before R.
        #expect(reduce(&state, .key(.character("s"))) == [.stopStream, .selectInput(source: .alsa(device: "default"))])
        #expect(state.stream == nil)
    }

    @Test func aFileThatEndsBeforeItsRecordingBringsTheInputBackWhenTheRecordingEnds() {
        var state = Self.playing()
        _ = reduce(&state, .key(.character("R")))
        let streamInput = InputDescription(name: .url(Self.url), sampleRate: 48000, channels: 2, recordingFormat: "FLAC")
        _ = reduce(&state, .inputOpened(streamInput))
        _ = reduce(&state, .recordingStarted(title: "Song 1", memoID: 7))
        _ = reduce(&state, .workFinished)
        // The player reaches the end first; the recording (its own connection) goes on.
        #expect(reduce(&state, .streamUpdate(.finished)) == [])
        #expect(state.stream == nil && state.recording == .recording)
        // Then its input runs out (the loop saves the recording): the input before R comes back.
        #expect(reduce(&state, .inputFailed(.inputStopped(.url(Self.url), reason: "it ran out"))) == [.selectInput(source: .alsa(device: "default"))])
        #expect(state.inputBeforeStreamRecording == nil)
        // Another input failing later is not answered by reopening anything.
        _ = reduce(&state, .inputOpened(Fixtures.input))
        #expect(reduce(&state, .inputFailed(.inputStopped(.alsa(device: "default"), reason: "unplugged"))) == [])
    }

    @Test func theStreamIsNotStoppedUnderARecordingBeingStarted() {
        var state = Self.playing()
        _ = reduce(&state, .key(.character("R")))
        #expect(reduce(&state, .key(.character(" "))) == [])
        #expect(Self.statusLine(state) == "The recording is being started; stop it (s) once the timer runs, then the stream.")
        #expect(state.stream != nil)
        // The stream failing meanwhile ends it, but the input R opens is left to the recording.
        #expect(reduce(&state, .streamUpdate(.failed(.stream(detail: "the connection to 127.0.0.1:8000 dropped before the stream's end")))) == [])
        #expect(state.stream == nil)
    }

    @Test func enterPlaysTheSelectedMemoInsteadOfTheStream() {
        var state = Self.playing()
        let memo = state.selectedMemo
        let effects = reduce(&state, .key(.enter))
        #expect(effects.first == .stopStream)
        #expect(effects.dropFirst().first.map { if case .play(let played, _) = $0 { played.id == memo?.id } else { false } } == true, "\(effects)")
        #expect(state.stream == nil)
    }

    @Test func aStreamStopsAMemoThatPlays() {
        var state = Self.browsing()
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 60, channels: 2))
        _ = reduce(&state, .key(.character("o")))
        Self.type(Self.url, into: &state)
        #expect(reduce(&state, .key(.enter)) == [.stopPlayback, .playStream(url: Self.url)])
        #expect(state.playback == nil && state.stream != nil)
    }

    @Test func theKeysAreShownWhereTheyApply() {
        let state = Self.browsing()
        #expect(KeyHelp.footer(for: state).contains { $0 == ("o", "stream") })
        #expect(KeyHelp.all.contains { $0.0 == "o" } && KeyHelp.all.contains { $0.0 == "R" })
        let playing = Self.playing()
        #expect(KeyHelp.footer(for: playing).prefix(2).map(\.0) == ["s", "R"])
    }
}
