import Vocabulary
import Metering

/// What the reducer asks the outside world to do: data, performed by one runner, whose
/// results come back as actions. The slow ones (library, files, opening devices) run on
/// the effect runner's queue, one at a time in order, each answered by its results and
/// then `Action.workFinished`; `WorkInFlight(for:before:after:)` says which they are.
public enum Effect: Sendable, Hashable {
    /// Start a new memo with this default title.
    case startRecording(title: String)
    case pauseRecording
    case resumeRecording
    /// Stop and save the memo being recorded; `recordingSaved` follows.
    case stopRecording
    case renameMemo(id: Int64, title: String)
    /// Undo a rename: give memo `id` back `title` only if it is still titled `replacing`
    /// (another process may have renamed it since; then it says so and changes nothing).
    case undoRename(id: Int64, title: String, replacing: String)
    /// Give memo `id` these tags and this star (`#`, `*`, and their undo).
    case setMemoTags(id: Int64, tags: [String], starred: Bool)
    /// Move to Recently Deleted.
    case deleteMemo(id: Int64)
    /// Bring back from Recently Deleted.
    case restoreMemo(id: Int64)
    /// Remove for good.
    case purgeMemo(id: Int64)
    /// Write a copy of memo `id` to `path` (converted when the name's extension says
    /// another format; an existing file is refused); a notice or a failure follows.
    /// `loudness`: the copy normalised to that target (the prompt's `Tab`), else as it is.
    case exportMemo(id: Int64, path: String, loudness: LoudnessTarget? = nil)
    /// The export prompt's Tab: the names in the typed path's folder that start with what
    /// follows its last `/` (`exportPathCompletions` answers).
    case completeExportPath(id: Int64, typed: String)
    /// Trim or split a memo (the library's edit: the original to Recently Deleted);
    /// `memoEdited` follows, with progress on the status line.
    case editMemo(EditRequest)
    /// Undo an edit: memo `originalID` back from Recently Deleted, `madeIDs` moved there.
    case undoEdit(originalID: Int64, madeIDs: [Int64])
    /// Play this memo from `from` seconds (0: its start; a transcript match: its word),
    /// stopping any other, with the last settings `adjustPlayback` gave; `playbackStarted`
    /// or `playbackFailed` follows.
    case play(MemoRow, from: Double = 0)
    case pausePlayback
    case resumePlayback
    /// Move the play head by this many seconds (negative: back), within the memo.
    case seekPlayback(by: Double)
    /// Move the play head to this many seconds into the memo.
    case jumpPlayback(to: Double)
    /// Play from now on with these settings (and the next memos too). Performed on the
    /// effect runner, behind what it is doing, but not tracked as work in flight.
    case adjustPlayback(PlaybackSettings)
    /// Store a marker `time` seconds into memo `memoID` (the one that plays), in the index.
    case addMarker(memoID: Int64, time: Double)
    /// Gives memo `memoID`'s marker at `time` the label `label` (empty: none) (`B`).
    case labelMarker(memoID: Int64, time: Double, label: String)
    /// Reads memo `memoID`'s markers and transcript state for `I` (`Action.memoDetailsLoaded`).
    case loadMemoDetails(memoID: Int64)
    /// Store a marker at the frame the recording in progress is capturing now, with `label`
    /// (empty for none: the `b` key's).
    case markRecording(label: String)
    /// Stop playing and release the playback device.
    case stopPlayback
    /// Play an http(s) stream (stopping one that plays) on the playback device; the player
    /// connects on its own thread and reports as `streamUpdate`.
    case playStream(url: String)
    /// Stop the stream that plays.
    case stopStream
    /// Make the stream `url` the input (a connection of its own) and start recording it
    /// into a memo titled `title`: `inputOpened` and `recordingStarted` follow.
    case recordStream(url: String, title: String)
    /// List the inputs for the picker; `inputsListed` follows.
    case listInputs
    /// List the playback devices for the output picker; `outputsListed` follows.
    case listOutputs
    /// Play memos (and voice activation's replays) on this ALSA device from the next one on.
    case selectOutput(device: String)
    /// Close the current input and open this one.
    case selectInput(source: InputName)
    /// Arm voice activation on the open input with these parameters (disarming first if
    /// it is armed: a take in progress is kept); `voiceTakeSaved` follows each kept take.
    case armVoiceActivation(VoiceParameters)
    /// Replay the armed voice activation's takes from the next kept one on (on or off, the
    /// pitch) without re-arming the detector: the panel changed only the replay.
    case setVoiceReplay(ReplayParameters)
    /// Stop voice activation; a take in progress is kept.
    case disarmVoiceActivation
    /// Open the library (start-up maintenance: recovery, adoption, the 30-day purge) and
    /// list it; `libraryLoaded` follows.
    case openLibrary
    /// List the library again (another process may have changed it); `libraryLoaded` follows.
    case reloadLibrary
    /// Run the noise alert's detector on the open input with these parameters (replacing one
    /// that runs), or stop it (`nil`).
    case setNoiseAlert(NoiseAlertParameters?)
    /// Ring the terminal bell (once per noise alert).
    case ringBell
    /// Change the open input's capture control; `captureGainRead(changed: true)` or
    /// `captureGainFailed` follows. Runs on the effect runner (a mixer call may block).
    case changeCaptureGain(CaptureGainChange)
    /// Read the open input's capture control (to know whether its switch is off);
    /// `captureGainRead(changed: false)` follows. On the effect runner, untracked.
    case readCaptureGain
    /// Find the memos whose transcripts hold the words of `query` (its last word may be
    /// the start of one, as it is being typed); `transcriptMatchesFound` follows.
    case searchTranscripts(query: String)
    /// Read memo `memoID`'s transcript for the transcript view; `transcriptLoaded` follows.
    case loadTranscript(memoID: Int64)
    /// Let the background transcription job look for memos without a transcript (a memo
    /// was saved or the library changed). Quick: it only wakes the job.
    case transcribeNewMemos
    /// Keep these settings in the config file (changed in the app, so the next start begins
    /// with them). Written beside the loop, not on the effect runner's queue; a later change of
    /// a setting not yet written replaces it. `settingsNotSaved` follows when the file cannot
    /// be written.
    case saveSettings([SettingChange])
    /// Restore the terminal and exit, once the work already asked for is done.
    case quit
}
