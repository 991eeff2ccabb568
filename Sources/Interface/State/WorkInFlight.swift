import Vocabulary

/// Slow work the effect runner is doing or has queued for the app: what it is, since
/// when, and how far it has got. Pure state: the reducer adds one when it emits an effect
/// the runner performs (`WorkInFlight(for:before:after:)`), and `Action.workFinished`
/// removes the oldest (the runner performs its effects one at a time, in order).
public struct WorkInFlight: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Opening the library (start-up maintenance and recovery) and listing it.
        case openingLibrary
        /// Listing the library again.
        case reloadingLibrary
        /// Opening an input (at start or from the picker).
        case openingInput(name: InputName)
        /// Listing the inputs for the picker.
        case listingInputs
        /// Listing the playback devices for the output picker.
        case listingOutputs
        /// Creating the memo and its file.
        case startingRecording
        /// Stopping the recording and finishing its memo (encoding, measuring, the index).
        case saving(title: String)
        case renaming(title: String)
        /// Storing a memo's tags or star (`#`, `*`).
        case tagging(title: String)
        case deleting(title: String)
        case restoring(title: String)
        case purging(title: String)
        /// Writing a copy of a memo to a file (`E`), converting when asked.
        case exporting(title: String)
        /// Opening a memo's file and the playback device.
        case startingPlayback(title: String)
        /// Changing the input's capture volume or switch (`<` `>` `M`).
        case changingCaptureGain
        /// Looking for memos by their spoken words.
        case searchingTranscripts(query: String)
        /// Reading a memo's transcript for the transcript view.
        case loadingTranscript(title: String)
        /// Trimming, splitting or removing the pauses of a memo.
        case editing(EditRequest)
        /// Undoing a trim or split: the original back from Recently Deleted.
        case undoingEdit(title: String)
    }

    public var kind: Kind
    /// When the reducer emitted it, on the runner's clock (`AppState.now`).
    public var startedAt: Double
    /// How much is done, 0…1, when the work can tell; `nil` otherwise.
    public var fraction: Double?
    /// What it is doing now, when the work says ("encoding MP3").
    public var stage: String?

    public init(kind: Kind, startedAt: Double, fraction: Double? = nil, stage: String? = nil) {
        self.kind = kind
        self.startedAt = startedAt
        self.fraction = fraction
        self.stage = stage
    }

    /// Work that has run this long shows on the status line.
    public static let visibleAfter = 0.5
    /// An input that has not opened after this long is said to give no answer (a stopped
    /// sound server: the pulse plugin waits for it), until the loop gives up on it.
    public static let inputSilentAfter = 2.0

    /// "Saving “Lecture”…", then with what it is doing and how far it is when known
    /// ("Saving “Lecture”… encoding MP3, 40 %"), else the seconds so far once there is one
    /// ("Saving “Lecture”… finishing the file, 3 s").
    public func statusText(at time: Double) -> String {
        let elapsed = max(time - startedAt, 0)
        if case .openingInput = kind, elapsed >= Self.inputSilentAfter {
            return "\(summary)… no answer for \(Int(elapsed)) s: is the audio server running?"
        }
        var detail: [String] = []
        if let stage { detail.append(stage) }
        if let fraction {
            // 99 % at most: the work is over when its answer comes, not at its last frame (an
            // edit's files are then flushed and put in place; a loaded disk took long enough
            // for "encoding MP3, 100 %" to be read while it ran).
            detail.append("\(min(Int((min(max(fraction, 0), 1) * 100).rounded(.down)), 99)) %")
        } else if elapsed >= 1 {
            detail.append("\(Int(elapsed)) s")
        }
        return detail.isEmpty ? "\(summary)…" : "\(summary)… " + detail.joined(separator: ", ")
    }

    /// The work in a few words: "Saving “Lecture”".
    public var summary: String {
        switch kind {
        case .openingLibrary: "Opening the library"
        case .reloadingLibrary: "Reading the library"
        case .openingInput(let name): "Opening \(name)"
        case .listingInputs: "Listing the inputs"
        case .listingOutputs: "Listing the playback devices"
        case .startingRecording: "Starting the recording"
        case .saving(let title): "Saving “\(title)”"
        case .renaming(let title): "Renaming to “\(title)”"
        case .tagging(let title): "Saving the tags of “\(title)”"
        case .deleting(let title): "Moving “\(title)” to Recently Deleted"
        case .restoring(let title): "Restoring “\(title)”"
        case .purging(let title): "Purging “\(title)”"
        case .exporting(let title): "Exporting “\(title)”"
        case .startingPlayback(let title): "Opening “\(title)” to play"
        case .changingCaptureGain: "Changing the capture volume"
        case .searchingTranscripts(let query): "Looking for “\(query)” in the transcripts"
        case .loadingTranscript(let title): "Reading the transcript of “\(title)”"
        case .editing(let request): request.inProgress
        case .undoingEdit(let title): "Bringing back “\(title)”"
        }
    }

    /// The work `effect` starts, if the runner performs it; `before` is the state the
    /// reducer started from (a deleted memo's title is gone from `after`).
    init?(for effect: Effect, before: AppState, after: AppState) {
        let kind: Kind
        func title(_ id: Int64) -> String {
            (before.memos + before.deletedMemos + after.memos + after.deletedMemos).first { $0.id == id }?.title ?? "memo \(id)"
        }
        switch effect {
        case .openLibrary: kind = .openingLibrary
        case .reloadLibrary: kind = .reloadingLibrary
        case .selectInput(let source): kind = .openingInput(name: source)
        case .listInputs: kind = .listingInputs
        case .listOutputs: kind = .listingOutputs
        case .startRecording, .recordStream: kind = .startingRecording
        case .stopRecording: kind = .saving(title: before.recordingTitle ?? "the recording")
        case .renameMemo(_, let newTitle), .undoRename(_, let newTitle, _): kind = .renaming(title: newTitle)
        case .setMemoTags(let id, _, _): kind = .tagging(title: title(id))
        case .deleteMemo(let id): kind = .deleting(title: title(id))
        case .restoreMemo(let id): kind = .restoring(title: title(id))
        case .purgeMemo(let id): kind = .purging(title: title(id))
        case .exportMemo(let id, _, _): kind = .exporting(title: title(id))
        case .play(let memo, _): kind = .startingPlayback(title: memo.title)
        case .changeCaptureGain: kind = .changingCaptureGain
        case .searchTranscripts(let query): kind = .searchingTranscripts(query: query)
        case .loadTranscript(let id): kind = .loadingTranscript(title: title(id))
        case .editMemo(let request):
            kind = .editing(request)
        case .undoEdit(let id, _): kind = .undoingEdit(title: title(id))
        case .setNoiseAlert, .ringBell, .readCaptureGain, .selectOutput, .playStream, .stopStream: return nil
        case .pauseRecording, .resumeRecording, .pausePlayback, .resumePlayback, .seekPlayback, .jumpPlayback, .stopPlayback,
            .adjustPlayback, .addMarker, .labelMarker, .loadMemoDetails, .markRecording,
            .armVoiceActivation, .setVoiceReplay, .disarmVoiceActivation, .transcribeNewMemos, .completeExportPath, .saveSettings, .quit:
            return nil
        }
        self.init(kind: kind, startedAt: after.now)
    }
}

extension Effect {
    /// Whether the effect runner performs it (and the reducer tracks it in `AppState.work`
    /// until `workFinished`); the others are quick and run on the UI queue.
    public var isRunnerWork: Bool {
        WorkInFlight(for: self, before: AppState(), after: AppState()) != nil
    }
}

extension WorkInFlight.Kind {
    /// Whether quitting may abandon this work instead of waiting for it: opening or listing
    /// inputs writes nothing (a stalled sound server would otherwise hold the quit for 30 s).
    public var isAbandonedByQuitting: Bool {
        switch self {
        case .openingInput, .listingInputs, .listingOutputs: true
        default: false
        }
    }
}

extension AppState {
    /// The title of a memo being saved, if one is.
    var memoBeingSaved: String? {
        for work in work {
            if case .saving(let title) = work.kind { return title }
        }
        return nil
    }

    /// The name of an input being opened, if one is.
    var inputBeingOpened: InputName? {
        for work in work {
            if case .openingInput(let name) = work.kind { return name }
        }
        return nil
    }
}
