import Vocabulary

/// What failed, for the status line: `Action.failed` carries it, and ``message`` words it.
///
/// The runtime says which thing failed and hands over the values the words need; it writes
/// no sentence of its own. Where a lower module's error is already worded for a person (a
/// `MemoLibraryError`, a `RecorderError`'s message), its text comes in as `detail`.
public enum AppFailure: Sendable, Hashable {
    // MARK: The library

    /// The library's lists could not be read again.
    case libraryReload(detail: String)
    /// A change to the library (rename, delete, restore, purge, undo) failed.
    case libraryChange(detail: String)
    /// The library had to be opened again (its index or folder was replaced); not a failure of
    /// the app's, but said as one: what the person sees may have changed.
    case libraryReopened(LibraryReopening)
    /// The library changed under the app and could not be opened again.
    case libraryNotReopened(detail: String)
    /// An undo of a rename found the memo's title changed (`now`) or the memo gone (`nil`).
    case undoChangedElsewhere(title: String, now: String?)
    /// An export's target exists already.
    case exportTargetExists(path: String)
    /// An export failed.
    case export(detail: String)
    /// A marker could not be stored in the index.
    case markerNotKept(detail: String)
    /// A marker's label could not be stored in the index.
    case markerLabelNotKept(detail: String)
    /// An edit (trim, split, silence removal, enhancement) failed; the memo is unchanged.
    case edit(title: String, detail: String)
    /// The transcripts could not be searched.
    case transcriptSearch(detail: String)
    /// The config file cannot keep the settings changed in the app (`detail` names the file and
    /// why: read-only, a folder that cannot be written); it is left as it was.
    case settingsNotSaved(detail: String)

    // MARK: Inputs and recording

    /// The input picked (or the stream `R` records) is not one that can be opened.
    case notAnInput(InputName, reason: String)
    /// `r` with no input open.
    case noInputToRecord
    /// A recording could not start because the library is not open.
    case recordingStartWithoutLibrary
    /// A recording could not start.
    case recordingStart(detail: String)
    /// A paused recording could not go on.
    case recordingResume(detail: String)
    /// The title the prompt gave a memo being saved could not be stored.
    case titleNotGiven(title: String, detail: String)
    /// A recording stopped while the library was not open: its file is at `path`.
    case recordingWithoutLibrary(path: String)
    /// A recording's file is at `path` but its memo could not be added; `stoppedBecause` is
    /// why it stopped, when it stopped on an error.
    case recordingNotAdded(path: String, stoppedBecause: String?, detail: String)
    /// A recording waiting for room (its intermediate whole) could not be added.
    case recordingKeptNotAdded(detail: String)

    /// The input stopped by itself (unplugged, a file source at its end): why, in words.
    case inputStopped(InputName, reason: String)
    /// The input did not open within `seconds` (a sound server that does not answer).
    case inputNoAnswer(InputName, seconds: Int)
    /// An ALSA input cannot be opened: ALSA's reason (and its own words, when it has any).
    case microphoneNotOpened(device: String, reason: String)
    /// A tone, file or stream input cannot be opened.
    case inputNotOpened(InputName, detail: String)
    /// The input the picker chose cannot be opened (`failure`), and the one open before it was
    /// opened again (`kept`).
    indirect case inputNotSwitched(AppFailure, kept: InputName)
    /// Nothing was recorded (a full disk from the start, `s` at once), so no memo was kept;
    /// `stoppedBecause` is why the recording stopped, when it stopped on an error.
    case nothingRecorded(stoppedBecause: String?)
    /// The library folder was deleted while recording, and the recording with it.
    case recordingLostWithFolder(folder: String, detail: String)
    /// The recording's file was deleted by another process before it was saved.
    case recordingFileGone(path: String)
    /// The capture control of an input could not be read or changed.
    case captureGain(InputName, detail: String)

    // MARK: Playback and voice activation

    /// Memo `title` cannot be played (`detail`: the player's words).
    case playbackNotStarted(title: String, detail: String)
    /// Memo `title` is no longer in the library.
    case playbackMemoGone(title: String)
    /// The playback device cannot be opened for memo `title` (`reason`: ALSA's).
    case playbackDeviceNotOpened(title: String, device: String, reason: String)
    /// Playback of memo `title` stopped on an error.
    case playbackStopped(title: String, detail: String)
    /// Voice activation could not be turned on.
    case voiceActivationNotArmed(detail: String)

    /// The player refused a playback setting (speed, pitch, volume) for memo `title`.
    case playbackSetting(title: String, detail: String)
    /// A voice-activated take could not be recorded.
    case voiceTakeNotRecorded(detail: String)
    /// A voice-activated take could not be saved.
    case voiceTakeNotSaved(detail: String)
    /// A kept take could not be replayed.
    case replay(title: String, detail: String)
}

/// Why the library was opened again.
public enum LibraryReopening: Sendable, Hashable {
    /// Nothing was replaced: it was opened again as it was.
    case asOpened
    /// Another process replaced the memo index in `folder`.
    case indexReplaced(folder: String)
    /// Another process deleted `folder`, made again empty; `recording` when a recording is in
    /// progress (it is saved there when it stops).
    case folderGone(folder: String, recording: Bool)
}
