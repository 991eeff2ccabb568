import Vocabulary

/// The status-line words for every `AppFailure`, in one place (the snapshot and end-to-end
/// tests quote them).
extension AppFailure {
    /// The status line's words.
    public var message: String {
        switch self {
        case .libraryReload(let detail), .libraryChange(let detail):
            detail
        case .libraryReopened(let reopening):
            reopening.message
        case .libraryNotReopened(let detail):
            "The library changed under the app and could not be opened again: \(detail)"
        case .undoChangedElsewhere(let title, let now):
            UndoEntry.changedElsewhere(title, now: now)
        case .exportTargetExists(let path):
            "Not exported: \(path) already exists. Choose another name (E)."
        case .export(let detail):
            "Cannot export: \(detail)"
        case .markerNotKept(let detail):
            "Cannot keep the marker: \(detail)"
        case .markerLabelNotKept(let detail):
            "Cannot keep the marker's label: \(detail)"
        case .edit(let title, let detail):
            "Cannot edit “\(title)”: \(detail). The memo is as it was."
        case .transcriptSearch(let detail):
            "Cannot search the transcripts: \(detail)"
        case .settingsNotSaved(let detail):
            "Settings changed here last until the app quits: \(detail)."
        case .notAnInput(let name, let reason):
            "“\(name)” is not an input: \(reason)"
        case .noInputToRecord:
            "No input is open, so there is nothing to record. Press i to choose an input."
        case .recordingStartWithoutLibrary:
            "Cannot start recording: the library is not open."
        case .recordingStart(let detail):
            "Cannot start recording: \(detail)"
        case .recordingResume(let detail):
            "Cannot resume recording: \(detail)"
        case .titleNotGiven(let title, let detail):
            "Cannot give the memo the title “\(title)”: \(detail)"
        case .recordingWithoutLibrary(let path):
            "The recording is in \(path) but the library is not open."
        case .recordingNotAdded(let path, let stoppedBecause, let detail):
            (stoppedBecause.map { "Recording stopped: \($0). " } ?? "")
                + "The recording is in \(path) but could not be added: \(detail)"
        case .recordingKeptNotAdded(let detail):
            "The recording is kept whole but could not be added: \(detail)"
        case .inputStopped(let name, let reason):
            // The source last: a long file path is what the status line may cut.
            "The input stopped: \(reason). Press i to choose an input. It was \(name)."
        case .inputNoAnswer(let name, let seconds):
            "No answer from \(name) for \(seconds) s: is the audio server running? Press i to choose an input."
        case .microphoneNotOpened(let device, let reason):
            "No microphone: ALSA '\(device)' cannot be opened (\(reason)). Press i to choose an input."
        case .inputNotOpened(let name, let detail):
            "The input \(name) cannot be opened: \(detail). Press i to choose an input."
        // The input still open first: the reason (a server's list of sources, a long path) is
        // what the status line may cut.
        case .inputNotSwitched(.microphoneNotOpened(let device, let reason), let kept):
            "Still listening to \(kept): ALSA '\(device)' cannot be opened (\(reason))."
        case .inputNotSwitched(let failure, let kept):
            Self.stillListening(to: kept, because: Self.withoutPickerHint(failure.message))
        case .nothingRecorded(let stoppedBecause):
            (stoppedBecause.map { "Recording stopped: \($0); nothing" } ?? "Nothing") + " was recorded, so no memo was kept."
        case .recordingLostWithFolder(let folder, let detail):
            "The library folder \(folder) was deleted while recording, and the recording with it (\(detail)): nothing was saved."
        case .recordingFileGone(let path):
            "The recording's file \(path) is gone (deleted by another process): nothing was saved."
        case .captureGain(let name, let detail):
            "\(name): \(detail)"
        case .playbackNotStarted(let title, let detail):
            "Cannot play “\(title)”: \(detail)."
        case .playbackMemoGone(let title):
            "Cannot play “\(title)”: it is no longer in the library."
        case .playbackDeviceNotOpened(let title, let device, let reason):
            "Cannot play “\(title)”: the playback device '\(device)' cannot be opened (\(reason)). Press O to choose where memos play."
        case .playbackStopped(let title, let detail):
            "Playback of “\(title)” stopped: \(detail)."
        case .voiceActivationNotArmed(let detail):
            "Cannot turn on voice activation: \(detail)"
        case .playbackSetting(let title, let detail):
            "Cannot play “\(title)” that way: \(detail)."
        case .voiceTakeNotRecorded(let detail):
            "A voice-activated take could not be recorded: \(detail)"
        case .voiceTakeNotSaved(let detail):
            "A voice-activated take could not be saved: \(detail)"
        case .replay(let title, let detail):
            "Cannot replay “\(title)”: \(detail)"
        }
    }

    /// "Still listening to KEPT: REASON." (no full stop after a question).
    static func stillListening(to kept: InputName, because reason: String) -> String {
        "Still listening to \(kept): " + asClause(reason) + (reason.hasSuffix("?") ? "" : ".")
    }

    /// `sentence` to follow a colon: its first letter lowercased where it begins a word ("No
    /// answer" → "no answer"), not where it begins a name ("ALSA", "USB").
    static func asClause(_ sentence: String) -> String {
        guard let first = sentence.first, first.isUppercase else { return sentence }
        let second = sentence.dropFirst().first
        guard second == nil || second?.isLowercase == true else { return sentence }
        return first.lowercased() + sentence.dropFirst()
    }

    /// `message` without its closing advice to press `i` (the input it names is not the one
    /// left open), and without its last full stop.
    static func withoutPickerHint(_ message: String) -> String {
        var text = message
        for hint in [" Press i to choose an input.", " Press i to choose one."] where text.hasSuffix(hint) {
            text.removeLast(hint.count)
        }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

extension LibraryReopening {
    /// "The library was opened again.", and why when something was replaced.
    var message: String {
        switch self {
        case .asOpened:
            "The library was opened again."
        case .indexReplaced(let folder):
            "The memo index in \(folder) was replaced by another process (a damaged one is moved aside and rebuilt); the app now uses the new one."
        case .folderGone(let folder, let recording):
            "The library folder \(folder) was deleted by another process; it is made again, empty."
                + (recording ? " The recording in progress is saved there when it stops." : "")
        }
    }
}
