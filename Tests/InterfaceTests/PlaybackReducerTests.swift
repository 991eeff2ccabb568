import TestSupport
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

    /// H and L seek 30 s, Home and End go to the memo's start and end while it plays
    /// (and select the first / last memo otherwise), and ♪ marks the memo that plays.
    @Test func longSeeksTheMemosEndsAndThePlayingMark() {
        var state = playing(elapsed: 10)
        #expect(reduce(&state, .key(.character("L"))) == [.seekPlayback(by: 30)])
        #expect(state.playback?.elapsed == 40)
        #expect(reduce(&state, .key(.character("H"))) == [.seekPlayback(by: -30)])
        #expect(reduce(&state, .key(.character("H"))) == [.seekPlayback(by: -30)])
        #expect(state.playback?.elapsed == 0, "within the memo")
        #expect(reduce(&state, .key(.end)) == [.jumpPlayback(to: 131)])
        #expect(reduce(&state, .key(.home)) == [.jumpPlayback(to: 0)])
        #expect(state.selection == 0, "the selection stays")
        _ = reduce(&state, .key(.down))
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix(" ♪Standup notes") }, "the memo that plays: \(lines)")
        #expect(lines.contains { $0.hasPrefix("▶ Idea for the parser") }, "the selection: \(lines)")
        _ = reduce(&state, .key(.up))
        #expect(AppView.render(state).lines().contains { $0.hasPrefix("▶♪Standup notes") })

        var idle = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&idle, .key(.character("L"))) == [])
        #expect(idle.status?.text.contains("H and L seek 30 s") == true)
        _ = reduce(&idle, .key(.end))
        #expect(idle.selection == Fixtures.memos.count - 1, "End selects the last memo while nothing plays")
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
        #expect(reduce(&state, .key(.character("r"))) == [.stopPlayback, .startRecording(title: "Memo 2026-11-29 14:05:10")])
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
        #expect(reduce(&state, .key(.character("d"))) == [.deleteMemo(id: 2)], "another memo: playback goes on")
        #expect(state.playback != nil)
        _ = reduce(&state, .key(.character("g")))
        #expect(reduce(&state, .key(.character("d"))) == [.stopPlayback, .deleteMemo(id: 1)])
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
        _ = reduce(&state, .playbackFailed(.playbackNotStarted(title: "Standup notes", detail: "no such device")))
        #expect(state.playback == nil)
        #expect(state.status == StatusMessage(text: "Cannot play “Standup notes”: no such device.", kind: .error))
    }

    @Test func theHeaderFollowsARename() {
        var state = playing()
        _ = reduce(&state, .key(.character("e")))
        _ = reduce(&state, .key(.end))
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

/// Speed, pitch, volume, skip silence and the jumps while a memo plays.
@Suite struct PlaybackAdjustmentKeyTests {
    func playing(elapsed: Double = 10) -> AppState {
        PlaybackReducerTests().playing(elapsed: elapsed)
    }

    @Test func bracketsStepTheSpeedByATenthBetweenHalfAndThree() {
        var state = playing()
        #expect(reduce(&state, .key(.character("]"))) == [.adjustPlayback(PlaybackSettings(speedTenths: 11))])
        #expect(state.status?.text == "Speed 1.1×, pitch kept.")
        for _ in 0..<30 { _ = reduce(&state, .key(.character("]"))) }
        #expect(state.playbackSettings.speedTenths == 30)
        #expect(reduce(&state, .key(.character("]"))) == [], "no effect past 3×")
        #expect(state.status?.text == "Already at the fastest speed, 3×.")
        for _ in 0..<40 { _ = reduce(&state, .key(.character("["))) }
        #expect(state.playbackSettings.speed == 0.5)
        #expect(state.status?.text == "Already at the slowest speed, 0.5×.")
        for _ in 0..<5 { _ = reduce(&state, .key(.character("]"))) }
        #expect(state.playbackSettings == PlaybackSettings(), "five steps up from 0.5× is exactly 1×")
    }

    @Test func bracesStepThePitchBySemitonesWithinAnOctave() {
        var state = playing()
        #expect(reduce(&state, .key(.character("}"))) == [.adjustPlayback(PlaybackSettings(pitchSemitones: 1))])
        #expect(state.status?.text == "Pitch +1 st, speed kept.")
        for _ in 0..<30 { _ = reduce(&state, .key(.character("{"))) }
        #expect(state.playbackSettings.pitchSemitones == -12)
        #expect(state.status?.text == "Already 12 semitones down.")
        #expect(state.playbackSettings.pitchText == "−12 st")
    }

    @Test func plusEqualsAndMinusStepTheVolumeBetweenNoneAndOneFiftyPercent() {
        var state = playing()
        #expect(reduce(&state, .key(.character("+"))) == [.adjustPlayback(PlaybackSettings(volumePercent: 110)), .saveSettings([.volume(110)])])
        #expect(state.status?.text == "Volume 110 %: above 100 % loud parts clip (CLIP shows it).")
        #expect(reduce(&state, .key(.character("="))) == [.adjustPlayback(PlaybackSettings(volumePercent: 120)), .saveSettings([.volume(120)])], "= is + without Shift")
        for _ in 0..<5 { _ = reduce(&state, .key(.character("+"))) }
        #expect(state.playbackSettings.volumePercent == 150)
        #expect(state.status?.text == "The volume is already at its most, 150 %.")
        for _ in 0..<20 { _ = reduce(&state, .key(.character("-"))) }
        #expect(state.playbackSettings.volumePercent == 0)
        #expect(state.status?.text == "The volume is already 0 %.")
    }

    @Test func clippingAboveAHundredPercentWarnsOnceAndGoesWithALowerVolume() {
        var state = playing()
        for _ in 0..<3 { _ = reduce(&state, .key(.character("+"))) }
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 12, PlaybackSnapshot(elapsed: 11, channels: [], clippedSamples: 40)))
        #expect(state.playback?.isClipping == true)
        #expect(state.status?.text == "Clipping at 130 %: press - to lower the volume.")
        let header = AppView.render(state).lines()[0]
        #expect(header.contains("vol 130 %  CLIP"), "\(header)")
        _ = reduce(&state, .key(.character("-")))
        #expect(state.playback?.isClipping == false, "what clipped at 130 % is not said of 120 %")
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 13, PlaybackSnapshot(elapsed: 12, channels: [], clippedSamples: 40)))
        #expect(state.playback?.isClipping == false)
        #expect(!AppView.render(state).lines()[0].contains("CLIP"))
    }

    @Test func fTogglesEnhanceAndTheHeaderSaysSo() {
        var state = playing()
        #expect(!AppView.render(state).lines()[0].contains("enhanced"))
        #expect(reduce(&state, .key(.character("f"))) == [.adjustPlayback(PlaybackSettings(enhances: true)), .saveSettings([.enhance(true)])])
        #expect(state.status?.text.hasPrefix("Enhance on: background noise suppressed while playing") == true, "\(String(describing: state.status))")
        #expect(state.status?.text.contains("F makes an enhanced memo") == true, "the app's key, in the app's words")
        #expect(state.status?.text.contains("voicememo") == false)
        #expect(AppView.render(state).lines()[0].contains("enhanced"), "\(AppView.render(state).lines()[0])")
        #expect(reduce(&state, .key(.character("f"))) == [.adjustPlayback(PlaybackSettings()), .saveSettings([.enhance(false)])])
        #expect(state.status?.text == "Enhance off.")
        #expect(!AppView.render(state).lines()[0].contains("enhanced"))
    }

    @Test func xTogglesSkipSilenceAndTheHeaderShowsWhatWasSkipped() {
        var state = playing()
        #expect(reduce(&state, .key(.character("x"))) == [.adjustPlayback(PlaybackSettings(skipsSilence: true))])
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 12, PlaybackSnapshot(elapsed: 14, channels: [], skippedSeconds: 2.86)))
        let header = AppView.render(state).lines()[0]
        #expect(header.contains("skip silence 2.8 s"), "\(header)")
        #expect(reduce(&state, .key(.character("x"))) == [.adjustPlayback(PlaybackSettings())])
        #expect(state.status?.text == "Skip silence off.")
        #expect(!AppView.render(state).lines()[0].contains("skip"))
    }

    @Test func digitsJumpToTenthsOfTheMemoAndCommaPeriodSeekASecond() {
        var state = playing(elapsed: 50)
        #expect(reduce(&state, .key(.character("5"))) == [.jumpPlayback(to: 65.5)])
        #expect(state.playback?.elapsed == 65.5)
        #expect(reduce(&state, .key(.character("0"))) == [.jumpPlayback(to: 0)])
        #expect(reduce(&state, .key(.character(","))) == [.seekPlayback(by: -1)])
        #expect(state.playback?.elapsed == 0, "clamped at the start")
        #expect(reduce(&state, .key(.character("9"))) == [.jumpPlayback(to: 117.9)])
        #expect(reduce(&state, .key(.character("."))) == [.seekPlayback(by: 1)])
        #expect(state.playback?.elapsed == 118.9)
    }

    /// Home and End are the memo's start and end while it plays; g and G still select.
    @Test func gAndGStillSelectMemosWhilePlaying() {
        var state = playing()
        #expect(reduce(&state, .key(.character("G"))) == [])
        #expect(state.selection == Fixtures.memos.count - 1)
        #expect(state.playback?.elapsed == 10, "the play head stays")
        #expect(reduce(&state, .key(.character("g"))) == [])
        #expect(state.selection == 0)
    }

    @Test func jumpsWithNothingPlayingSaySoAndTheSettingsAreForTheNextMemo() {
        var state = Fixtures.state(width: 80, height: 24)
        for key in ",.07" {
            #expect(reduce(&state, .key(.character(key))) == [], "\(key)")
            #expect(state.status?.text.hasPrefix("Nothing is playing.") == true)
        }
        #expect(reduce(&state, .key(.character("]"))) == [.adjustPlayback(PlaybackSettings(speedTenths: 11))])
        #expect(state.status?.text == "Speed 1.1×, pitch kept. For the memos you play.")
        #expect(reduce(&state, .key(.character("-"))) == [.adjustPlayback(PlaybackSettings(speedTenths: 11, volumePercent: 90)), .saveSettings([.volume(90)])])
        #expect(state.playback == nil)
        #expect(reduce(&state, .key(.enter)) == [.play(Fixtures.memos[0])], "the runner plays it with the settings it was given")
    }

    @Test func theSettingsStayForTheNextMemo() {
        var state = playing()
        _ = reduce(&state, .key(.character("]")))
        _ = reduce(&state, .playbackFinished)
        #expect(state.playbackSettings.speedTenths == 11, "kept after the memo ends")
        _ = reduce(&state, .playbackStarted(memoID: 2, title: "Idea for the parser", duration: 37, channels: 1))
        #expect(AppView.render(state).lines()[0].contains("1.1×"))
    }

    @Test func theEffectsAreNotWorkInFlight() {
        #expect(!Effect.adjustPlayback(PlaybackSettings(speedTenths: 15)).isRunnerWork)
        #expect(!Effect.jumpPlayback(to: 3).isRunnerWork)
        var state = playing()
        let work = state.work
        _ = reduce(&state, .key(.character("]")))
        _ = reduce(&state, .key(.character("5")))
        #expect(state.work == work, "nothing added to the work in flight")
    }
}

/// `b`, `n` and `N`: markers while playing and recording.
@Suite struct MarkerKeyTests {
    func playing(elapsed: Double = 10) -> AppState {
        PlaybackReducerTests().playing(elapsed: elapsed)
    }

    @Test func bMarksThePlayHeadAndShowsOnTheBar() {
        var state = playing(elapsed: 65.5)
        #expect(reduce(&state, .key(.character("b"))) == [.addMarker(memoID: 1, time: 65.5)])
        #expect(state.playback?.markers == [65.5])
        #expect(state.status?.text == "Marker at 00:01:05; n and N jump between markers, B labels it.")
        let header = AppView.render(state).lines()[0]
        #expect(header.contains("┃"), "\(header)")
    }

    @Test func markersFromTheIndexJoinThoseAddedMeanwhile() {
        var state = playing(elapsed: 20)
        _ = reduce(&state, .key(.character("b")))
        _ = reduce(&state, .markersLoaded(memoID: 1, times: [100, 5, 20]))
        #expect(state.playback?.markers == [5, 20, 100])
        _ = reduce(&state, .markersLoaded(memoID: 2, times: [1]))
        #expect(state.playback?.markers == [5, 20, 100], "another memo's markers are not this one's")
    }

    @Test func nAndNJumpToTheNextAndPreviousMarker() {
        var state = playing(elapsed: 10)
        _ = reduce(&state, .markersLoaded(memoID: 1, times: [5, 30, 90]))
        #expect(reduce(&state, .key(.character("n"))) == [.jumpPlayback(to: 30)])
        #expect(state.status?.text == "Marker 2 of 3, 00:00:30.")
        #expect(reduce(&state, .key(.character("n"))) == [.jumpPlayback(to: 90)])
        #expect(reduce(&state, .key(.character("n"))) == [])
        #expect(state.status?.text == "No marker after the play head.")
        _ = reduce(&state, .playbackProgress(time: Fixtures.now + 12, PlaybackSnapshot(elapsed: 90.4, channels: [])))
        #expect(reduce(&state, .key(.character("N"))) == [.jumpPlayback(to: 30)], "just past a marker, N goes to the one before")
        #expect(reduce(&state, .key(.character("N"))) == [.jumpPlayback(to: 5)])
        #expect(reduce(&state, .key(.character("N"))) == [])
        #expect(state.status?.text == "No marker before the play head.")
    }

    @Test func withoutMarkersOrPlaybackTheKeysSayWhy() {
        var state = playing()
        #expect(reduce(&state, .key(.character("n"))) == [])
        #expect(state.status?.text == "This memo has no markers: b adds one at the play head.")
        state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("b"))) == [])
        #expect(state.status?.text == "b marks the play head while a memo plays, or the recording while one records.")
        #expect(reduce(&state, .key(.character("N"))) == [])
        #expect(state.status?.text.hasPrefix("Nothing is playing") == true)
    }

    @Test func bWhileRecordingMarksTheRecordingAndTheFooterSaysSo() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .recordingStarted(title: "Memo"))
        _ = reduce(&state, .tick(time: Fixtures.now + 12, snapshot: Fixtures.levels(recording: .recording, frames: 48000 * 62)))
        #expect(reduce(&state, .key(.character("b"))) == [.markRecording(label: "")])
        #expect(state.status?.text == "Marker at 00:01:02 of the recording.")
        #expect(!Effect.markRecording(label: "").isRunnerWork && !Effect.addMarker(memoID: 1, time: 1).isRunnerWork)
        state.status = nil
        let footer = AppView.render(state).lines()[23]
        #expect(footer.contains("s stop  b mark"), "\(footer)")
    }
}
