import TestSupport
import Vocabulary
import Testing

@testable import Interface

/// Every `AppFailure` worded as the status line said it when the runtime wrote the sentence
/// itself: the words moved into Interface, unchanged.
@Suite struct AppFailureWordingTests {
    static let cases: [(AppFailure, String)] = [
        (.libraryReload(detail: "the memo index cannot be read"), "the memo index cannot be read"),
        (.libraryChange(detail: "The library is read-only."), "The library is read-only."),
        (.libraryReopened(.asOpened), "The library was opened again."),
        (.libraryReopened(.indexReplaced(folder: "/m")),
         "The memo index in /m was replaced by another process (a damaged one is moved aside and rebuilt); the app now uses the new one."),
        (.libraryReopened(.folderGone(folder: "/m", recording: false)),
         "The library folder /m was deleted by another process; it is made again, empty."),
        (.libraryReopened(.folderGone(folder: "/m", recording: true)),
         "The library folder /m was deleted by another process; it is made again, empty. The recording in progress is saved there when it stops."),
        (.libraryNotReopened(detail: "gone"), "The library changed under the app and could not be opened again: gone"),
        (.undoChangedElsewhere(title: "A", now: "B"), "“A” was renamed elsewhere since (now “B”); not undone."),
        (.undoChangedElsewhere(title: "A", now: nil), "“A” was deleted or purged elsewhere since; not undone."),
        (.exportTargetExists(path: "/x.flac"), "Not exported: /x.flac already exists. Choose another name (E)."),
        (.export(detail: "full"), "Cannot export: full"),
        (.markerNotKept(detail: "full"), "Cannot keep the marker: full"),
        (.markerLabelNotKept(detail: "full"), "Cannot keep the marker's label: full"),
        (.edit(title: "A", detail: "full"), "Cannot edit “A”: full. The memo is as it was."),
        (.transcriptSearch(detail: "full"), "Cannot search the transcripts: full"),
        (.notAnInput(.url("ftp://x"), reason: "bad"), "“url:ftp://x” is not an input: bad"),
        (.noInputToRecord, "No input is open, so there is nothing to record. Press i to choose an input."),
        (.recordingStartWithoutLibrary, "Cannot start recording: the library is not open."),
        (.recordingStart(detail: "full"), "Cannot start recording: full"),
        (.recordingResume(detail: "gone"), "Cannot resume recording: gone"),
        (.titleNotGiven(title: "A", detail: "full"), "Cannot give the memo the title “A”: full"),
        (.recordingWithoutLibrary(path: "/x.mp3"), "The recording is in /x.mp3 but the library is not open."),
        (.recordingNotAdded(path: "/x.mp3", stoppedBecause: nil, detail: "disk I/O error"),
         "The recording is in /x.mp3 but could not be added: disk I/O error"),
        (.recordingNotAdded(path: "/x.mp3", stoppedBecause: "the disk is full", detail: "disk I/O error"),
         "Recording stopped: the disk is full. The recording is in /x.mp3 but could not be added: disk I/O error"),
        (.recordingKeptNotAdded(detail: "full"), "The recording is kept whole but could not be added: full"),
        (.playbackSetting(title: "A", detail: "too fast"), "Cannot play “A” that way: too fast."),
        (.voiceTakeNotRecorded(detail: "full"), "A voice-activated take could not be recorded: full"),
        (.voiceTakeNotSaved(detail: "full"), "A voice-activated take could not be saved: full"),
        (.replay(title: "A", detail: "no device"), "Cannot replay “A”: no device"),
        // The failures of inputFailed, recordingDiscarded, playbackFailed, voiceArmFailed and
        // captureGainFailed, worded by the runtime before they were typed.
        (.inputStopped(.file(path: "/a b.wav"), reason: "it ran out"),
         "The input stopped: it ran out. Press i to choose an input. It was file:/a b.wav."),
        (.inputNoAnswer(.alsa(device: "pulse"), seconds: 8),
         "No answer from alsa:pulse for 8 s: is the audio server running? Press i to choose an input."),
        (.microphoneNotOpened(device: "default", reason: "no such device: Unknown PCM default"),
         "No microphone: ALSA 'default' cannot be opened (no such device: Unknown PCM default). Press i to choose an input."),
        (.inputNotOpened(.tone(frequency: 440, peakDBFS: -12), detail: "bad tone"),
         "The input tone:440@-12 cannot be opened: bad tone. Press i to choose an input."),
        (.nothingRecorded(stoppedBecause: nil), "Nothing was recorded, so no memo was kept."),
        (.nothingRecorded(stoppedBecause: "the disk is full"),
         "Recording stopped: the disk is full; nothing was recorded, so no memo was kept."),
        (.recordingLostWithFolder(folder: "/m", detail: "gone"),
         "The library folder /m was deleted while recording, and the recording with it (gone): nothing was saved."),
        (.recordingFileGone(path: "/m/a.flac"), "The recording's file /m/a.flac is gone (deleted by another process): nothing was saved."),
        (.captureGain(.alsa(device: "vm"), detail: "no mixer"), "alsa:vm: no mixer"),
        (.playbackNotStarted(title: "A", detail: "no such device"), "Cannot play “A”: no such device."),
        (.playbackMemoGone(title: "A"), "Cannot play “A”: it is no longer in the library."),
        (.playbackDeviceNotOpened(title: "A", device: "nope", reason: "no such device"),
         "Cannot play “A”: the playback device 'nope' cannot be opened (no such device). Press O to choose where memos play."),
        (.playbackStopped(title: "A", detail: "unplugged"), "Playback of “A” stopped: unplugged."),
        (.voiceActivationNotArmed(detail: "no input"), "Cannot turn on voice activation: no input"),
        (.inputNotSwitched(.microphoneNotOpened(device: "jack", reason: "no such device"), kept: .tone(frequency: 440, peakDBFS: -20)),
         "Still listening to tone:440@-20: ALSA 'jack' cannot be opened (no such device)."),
        (.inputNotSwitched(.inputNoAnswer(.alsa(device: "pulse"), seconds: 10), kept: .alsa(device: "default")),
         "Still listening to alsa:default: no answer from alsa:pulse for 10 s: is the audio server running?"),
        (.inputNotSwitched(.inputNotOpened(.file(path: "/x.wav"), detail: "no such file"), kept: .alsa(device: "default")),
         "Still listening to alsa:default: the input file:/x.wav cannot be opened: no such file."),
    ]

    @Test func eachFailureReadsAsBefore() {
        for (failure, words) in Self.cases {
            #expect(failure.message == words)
        }
    }

    @Test func theReducerPutsTheWordsOnTheStatusLineAsAnError() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .failed(.noInputToRecord))
        #expect(state.status == StatusMessage(text: "No input is open, so there is nothing to record. Press i to choose an input.", kind: .error))
    }
}
