import Testing

@testable import Interface

/// Playback in the reducer: every key and every result of the player.
@Suite struct PlaybackReducerTests {
    /// The first memo ("Standup notes", 131 s) playing, `elapsed` seconds in.
    func playing(elapsed: Double = 10) -> AppState {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.enter)) == [.play(Fixtures.memos[0])])
        #expect(state.playback == nil, "playing starts when the player says so")
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 131, channels: 2))
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 11, PlaybackSnapshot(elapsed: elapsed, channels: [])))
        return state
    }

    @Test func enterPlaysTheSelectedMemo() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.enter)) == [.play(Fixtures.memos[1])])
        _ = reduce(&state, .playbackStarted(memoID: 2, title: "Idea for the parser", duration: 37, channels: 1))
        #expect(state.playback == PlaybackState(memoID: 2, title: "Idea for the parser", duration: 37, channels: 1))
        #expect(state.status?.text.hasPrefix("Playing “Idea for the parser”.") == true)
        #expect(state.layout.meterRows.count == 1, "the meter rows follow the memo's channels")
        _ = reduce(&state, .key(.up))
        #expect(reduce(&state, .key(.enter)) == [.play(Fixtures.memos[0])], "Enter on another memo plays that one")
    }

    @Test func enterWithNothingToPlayOrWhileRecordingSaysWhy() {
        var state = Fixtures.state(width: 80, height: 24, memos: [])
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(state.status?.text == "No memo to play. Press r to record one.")
        state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .recordingStarted(title: "Memo"))
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(state.status?.text == "Recording. Stop it (s) before playing a memo.")
    }

    @Test func progressMovesThePlayHeadAndTheMeterShowsPlaybackLevels() {
        var state = playing()
        let levels = [ChannelLevel(average: -12, peak: -3), ChannelLevel(average: -30, peak: -20)]
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 12, PlaybackSnapshot(elapsed: 12.5, channels: levels)))
        #expect(state.playback?.elapsed == 12.5)
        #expect(state.shownMeters.map(\.average) == [-12, -30])
        #expect(state.shownMeters.map(\.heldPeak) == [-3, -20])
        #expect(state.meters.map(\.average) == [-18.2, -19.0], "the input's meters are kept for after playback")
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 13, PlaybackSnapshot(elapsed: 500, channels: levels)))
        #expect(state.playback?.elapsed == 131, "clamped to the length")
        #expect(state.playback?.fraction == 1)
    }

    @Test func spacePausesAndResumes() {
        var state = playing(elapsed: 47)
        #expect(reduce(&state, .key(.character(" "))) == [.pausePlayback])
        #expect(state.playback?.isPaused == true)
        #expect(state.status?.text == "Paused “Standup notes” at 00:00:47. Space resumes.")
        #expect(KeyHelp.footer(for: state).first?.1 == "resume")
        #expect(reduce(&state, .key(.character(" "))) == [.resumePlayback])
        #expect(state.playback?.isPaused == false)
        #expect(KeyHelp.footer(for: state).first?.1 == "pause")
    }

    @Test func spaceWithNothingPlayingSaysHowToPlay() {
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character(" "))) == [])
        #expect(state.status?.text == "Nothing is playing. Press ⏎ to play the selected memo.")
    }

    @Test func arrowsSeekFiveSecondsWithinTheMemo() {
        var state = playing(elapsed: 3)
        #expect(reduce(&state, .key(.right)) == [.seekPlayback(by: 5)])
        #expect(state.playback?.elapsed == 8)
        #expect(reduce(&state, .key(.left)) == [.seekPlayback(by: -5)])
        #expect(reduce(&state, .key(.left)) == [.seekPlayback(by: -5)])
        #expect(state.playback?.elapsed == 0, "clamped at the start")
        state = playing(elapsed: 129)
        _ = reduce(&state, .key(.right))
        #expect(state.playback?.elapsed == 131, "clamped at the end")
    }

    @Test func arrowsWithNothingPlayingDoNothing() {
        var state = Fixtures.state(width: 80, height: 24)
        let before = state
        #expect(reduce(&state, .key(.left)) == [])
        #expect(reduce(&state, .key(.right)) == [])
        #expect(state == before)
    }

    @Test func sStopsPlaybackButWhileRecordingStopsTheRecording() {
        var state = playing(elapsed: 3)
        #expect(reduce(&state, .key(.character("s"))) == [.stopPlayback])
        #expect(state.playback == nil)
        #expect(state.status?.text == "Stopped “Standup notes” at 00:00:03.")
        #expect(reduce(&state, .key(.character("s"))) == [])
        #expect(state.status?.text == "Nothing to stop. Press r to record, ⏎ to play.")
        _ = reduce(&state, .recordingStarted(title: "Memo"))
        #expect(reduce(&state, .key(.character("s"))) == [.stopRecording])
    }

    @Test func recordingStopsPlaybackFirst() {
        var state = playing()
        #expect(reduce(&state, .key(.character("r"))) == [.stopPlayback, .startRecording(title: "Memo 2026-11-29 14:05")])
        #expect(state.playback == nil)
    }

    @Test func withoutAnInputRecordingFailsAndPlaybackGoesOn() {
        var state = Fixtures.state(width: 80, height: 24, input: nil)
        _ = reduce(&state, .playbackStarted(memoID: 1, title: "Standup notes", duration: 131, channels: 2))
        #expect(reduce(&state, .key(.character("r"))) == [])
        #expect(state.playback != nil)
    }

    @Test func deletingTheMemoThatPlaysStopsItFirst() {
        var state = playing()
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.character("d")))
        #expect(reduce(&state, .key(.character("y"))) == [.deleteMemo(id: 2)], "another memo: playback goes on")
        #expect(state.playback != nil)
        _ = reduce(&state, .key(.home))
        _ = reduce(&state, .key(.character("d")))
        #expect(reduce(&state, .key(.character("y"))) == [.stopPlayback, .deleteMemo(id: 1)])
        #expect(state.playback == nil)
    }

    @Test func theEndReturnsToIdle() {
        var state = playing()
        _ = reduce(&state, .playbackFinished)
        #expect(state.playback == nil)
        #expect(state.status?.text == "Finished playing “Standup notes”.")
        #expect(KeyHelp.footer(for: state).first?.0 == "r")
        _ = reduce(&state, .playbackFinished)
        #expect(state.status?.text == "Finished playing “Standup notes”.", "a late second end changes nothing")
    }

    @Test func aFailureIsAStatusLineError() {
        var state = playing()
        _ = reduce(&state, .playbackFailed("Cannot play “Standup notes”: no such device."))
        #expect(state.playback == nil)
        #expect(state.status == StatusMessage(text: "Cannot play “Standup notes”: no such device.", kind: .error))
    }

    @Test func theHeaderFollowsARename() {
        var state = playing()
        _ = reduce(&state, .key(.character("e")))
        _ = reduce(&state, .key(.character("!")))
        _ = reduce(&state, .key(.enter))
        #expect(state.playingTitle == "Standup notes!")
        #expect(AppView.render(state).lines()[0].hasPrefix(" Standup notes!"))
    }

    @Test func theHelpAndTheFooterListThePlaybackKeys() {
        let keys = KeyHelp.all.map(\.0)
        #expect(keys.contains("⏎") && keys.contains { $0.contains("space") } && keys.contains { $0.contains("← →") })
        let state = playing()
        #expect(KeyHelp.footer(for: state).map(\.0).prefix(3) == ["space", "← →", "s"])
    }
}
