import Vocabulary
import Metering

/// Everything that can happen to the app: keys, time, and the results of effects.
public enum Action: Sendable {
    /// A key was pressed.
    case key(Key)
    /// Time passed: `time` is seconds since 1970 (the runner's clock); `snapshot` is
    /// the engine's levels and recording state, `nil` when no input is open.
    case tick(time: Double, snapshot: EngineSnapshot?)
    /// The runner's clock as it reads keys (seconds since 1970), so a key is judged at the
    /// time it came (the guard against keys typed ahead of the title prompt), not at the last
    /// tick's.
    case clock(time: Double)
    /// The terminal is now this many columns and rows.
    case resize(width: Int, height: Int)
    /// The input opened (the meter runs from now on).
    case inputOpened(InputDescription)
    /// The input could not be opened or failed (`AppFailure.message` words it).
    case inputFailed(AppFailure)
    /// The inputs the picker can offer.
    case inputsListed(InputChoiceList)
    /// The open input picker's list is due to be asked for again (`AppState.inputListIsDue`).
    case inputListDue(time: Double)
    /// The playback devices for the output picker.
    case outputsListed([OutputChoice], hidden: [String] = [])
    /// The library's memos and Recently Deleted, newest first.
    case libraryLoaded(memos: [MemoRow], deleted: [MemoRow])
    /// Files dropped into the library folder while the app runs, adopted as memos (the
    /// lists come with the next `libraryLoaded`).
    case filesAdopted([DroppedFile])
    /// Memo `memoID` started playing: `duration` seconds of `channels` channels.
    case playbackStarted(memoID: Int64, title: String, duration: Double, channels: Int)
    /// The player's play head and levels at one tick; `time` as in `.tick`.
    case playbackProgress(time: Double, PlaybackSnapshot)
    /// The stream player reported (`Effect.playStream`).
    case streamUpdate(StreamUpdate)
    /// The stream player's levels at one tick; `time` as in `.tick`.
    case streamProgress(time: Double, StreamSnapshot)
    /// An edit (`Effect.editMemo`) was made.
    case memoEdited(EditOutcome)
    /// Memo `memoID`'s peak envelope for the waveform band (`nil`: it has none yet).
    case waveformLoaded(memoID: Int64, PeakEnvelope?)
    /// Memo `memoID`'s markers, seconds from its start (read when it started playing), and
    /// the labels of those that have one, by time.
    case markersLoaded(memoID: Int64, times: [Double], labels: [Double: String] = [:])
    /// What `I` shows of memo `memoID` besides its row: its markers and its transcript's state.
    case memoDetailsLoaded(MemoExtras)
    /// Playback reached the end of the memo.
    case playbackFinished
    /// Playback could not start, or stopped on an error (`AppFailure.message` words it).
    case playbackFailed(AppFailure)
    /// Recording started into memo `memoID` (the library's id; `nil` when unknown) with this
    /// title. `s` opens the title prompt for that memo at once, while it is saved.
    case recordingStarted(title: String, memoID: Int64? = nil)
    /// A recording stopped and was saved as `memo`.
    case recordingSaved(MemoRow)
    /// A recording stopped by itself on an error (a full disk) and what was recorded was saved
    /// as `memo`, or its library folder was deleted under it. The cause stays on the status
    /// line: no title prompt.
    case recordingStoppedOnError(MemoRow, RecordingStop)
    /// A recording stopped having recorded nothing (a full disk from its start, a stop at once):
    /// no memo was kept; the failure says why, for the status line.
    case recordingDiscarded(AppFailure)
    /// A voice-activated take ended with enough sound and was saved as `memo`.
    case voiceTakeSaved(MemoRow)
    /// Voice activation could not be armed (the failure says why): it is off.
    case voiceArmFailed(AppFailure)
    /// The memos whose transcripts matched `query` (the filter as it was when searched).
    case transcriptMatchesFound(query: String, [TranscriptMatch])
    /// Memo `memoID`'s transcript, for the transcript view.
    case transcriptLoaded(memoID: Int64, TranscriptContent)
    /// The background transcription job got this far.
    case transcription(TranscriptionEvent)
    /// Something failed: what, with the values its words need (`AppFailure.message`, for the
    /// status line).
    case failed(AppFailure)
    /// Export wrote a copy of a memo.
    case exported(ExportedCopy)
    /// The export prompt's path was refused before anything was written (a folder that does
    /// not exist, a file already there, a place only the library writes): the prompt opens
    /// again with the path as typed and the reason above it.
    case exportRefused(id: Int64, typed: String, failure: AppFailure)
    /// The paths that complete `typed` at the export prompt (each as it would be typed, a
    /// folder ending in `/`), in order.
    case exportPathCompletions(id: Int64, typed: String, matches: [String])
    /// The open input went away and capture went on from another in the same recording (a
    /// sound server's source removed, `on_source_lost = default`): `sentence` for the status
    /// line, `markerLabel` for the marker the recording keeps where it happened.
    case inputSwitched(sentence: String, markerLabel: String)
    /// The app started with this input: open it and the library.
    case launched(input: InputName)
    /// The open input's capture control as read (after a change when `changed`).
    case captureGainRead(CaptureGainReading, changed: Bool)
    /// The capture control could not be read or changed ("alsa:pulse: the mixer … has no
    /// capture volume control"); `changed` as above.
    case captureGainFailed(AppFailure, changed: Bool)
    /// The oldest work in flight (`AppState.work`) is done; its results came before.
    case workFinished
    /// The scheduled recording's time came, or its duration was recorded (`AppState.scheduleIsDue`).
    case scheduleReached(time: Double)
    /// The live captioner heard words, or stopped (`LiveCaptionState`).
    case captions(CaptionUpdate)
    /// The config file could not keep the settings changed in the app (`Effect.saveSettings`):
    /// said once a run, however many changes follow.
    case settingsNotSaved(AppFailure)
    /// The oldest work in flight got this far: `fraction` 0…1 when known, `stage` in words
    /// ("encoding MP3") when it says.
    case workProgress(fraction: Double?, stage: String?)
    /// A request through the control socket (`voicememo toggle`, `pause`, `stop`, `mark`):
    /// the memo table's keys do it, whatever the screen; the answer is left in
    /// `AppState.controlAnswer`.
    case control(ControlRequest)
}
