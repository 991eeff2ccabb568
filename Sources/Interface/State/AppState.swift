import Vocabulary
import Metering

/// Everything the screen shows, and nothing else: views are pure functions of it.
public struct AppState: Sendable, Equatable {
    // MARK: Input and meter

    /// The open input; `nil` when none is open.
    public var input: InputDescription?
    /// One per input channel.
    public var meters: [ChannelMeter] = []
    /// Lit at the input's next clip (`ClipRule`: three full-scale samples in a row); `c` resets it.
    public var clipLatch = ClipLatch()
    /// dB → 0…1 mapping of the LED rows.
    public var meterScale: MeterScale = .standard
    /// What the LED rows show (`m` cycles).
    public var meterMode: MeterMode = .digital
    /// The loudness mode's target line, LUFS (−23 is EBU R128; −16 is common for speech online).
    public var loudnessTarget = -23.0
    /// The programme's momentary loudness (400 ms), LUFS; `nil` until measured.
    public var momentaryLoudness: Double?
    /// The programme's short-term loudness (3 s), LUFS; `nil` until measured.
    public var shortTermLoudness: Double?
    /// What the input's diagnostics find wrong now (from the latest snapshot); shown on the
    /// status line while monitoring (see `statusLine`).
    public var inputDiagnosis: InputDiagnosis?
    /// When the current diagnosis (or its absence) began, on the runner's clock.
    public var inputDiagnosisSince = 0.0

    // MARK: Recording

    public var recording: RecordingState = .idle
    public var recordedFrames: Int64 = 0
    /// The title of the memo being recorded (from `recordingStarted`).
    public var recordingTitle: String?
    /// The library's id of the memo being recorded (from `recordingStarted`).
    public var recordingMemoID: Int64?
    /// What the last `Action.control` comes to, for the control socket's reply; the loop takes it.
    public var controlAnswer: ControlReply?
    /// The memo `s` stopped, from the stop until its save answers (`recordingSaved`): the
    /// title prompt opens for it at once, and a title typed there goes to the runner, which
    /// applies it to the memo while the save runs (see `SavingRecording`).
    public var savingRecording: SavingRecording?
    /// Voice-activated recording (`v`) and its parameters (`V`).
    public var voice = VoiceActivationState()
    /// The noise alert (set in the `V` panel) and its last alert.
    public var alert = NoiseAlertState()
    /// The open input's capture control, once read (`<` `>` `M`, or when the input is silent).
    public var captureGain: CaptureGainReading?
    /// The recording `--at` schedules, until it starts or `s` cancels it.
    public var scheduled: ScheduledRecording?
    /// Seconds of recorded audio after which the recording stops (`--at` with `--duration`).
    public var scheduledStop: Double?
    /// Live captions: the draft words under the meter while recording (`C`).
    public var captions = LiveCaptionState()
    /// Seconds the meters hold a peak before it decays.
    public var peakHoldTime = 1.0

    // MARK: Playback

    /// The memo being played; `nil` when nothing plays.
    public var playback: PlaybackState?
    /// The network stream playing (`o`); `nil` when none plays.
    public var stream: StreamState?
    /// The URL last played (`o` offers it again, to correct or replay).
    public var lastStreamURL = ""
    /// The input open before `R` made the stream the input:
    /// opened again when the stream stops, or when that input ends after the stream did.
    public var inputBeforeStreamRecording: InputName?
    /// How memos play (speed, pitch, volume, skip silence); kept from one memo to the next.
    public var playbackSettings = PlaybackSettings()

    // MARK: Transcripts

    /// The background transcription job (`transcribe = auto`).
    public var transcription = BackgroundTranscription()
    /// The transcript view's memo and contents while `Mode.transcript` is up.
    public var transcriptView: TranscriptViewState?

    // MARK: Library

    /// The markers and transcript state of the memo `I` shows, once read (`nil` meanwhile).
    public var memoExtras: MemoExtras?

    /// The library's memos in `sortOrder` (newest first unless `a` chose another).
    public var memos: [MemoRow] = []
    /// The memo table's order (`a`).
    public var sortOrder = MemoSortOrder.newestFirst
    /// Recently Deleted, most recently deleted first.
    public var deletedMemos: [MemoRow] = []
    /// The `/` filter: titles that contain it (case-insensitively), and memos whose
    /// transcripts hold its words (`transcriptMatches`).
    public var filter = ""
    /// The memos whose transcripts matched `transcriptMatchQuery`, by id (from the runner's search).
    public var transcriptMatches: [Int64: TranscriptMatch] = [:]
    /// The filter text `transcriptMatches` answer; matches for an older text are not shown.
    public var transcriptMatchQuery = ""
    /// Index into `visibleMemos`: the row the table marks. Setting it chooses the memo on that
    /// row (`selectedMemoID`), which the selection then follows.
    public var selection: Int {
        get { shownSelection }
        set {
            shownSelection = newValue
            let visible = visibleMemos
            selectedMemoID = visible.indices.contains(newValue) ? visible[newValue].id : selectedMemoID
        }
    }
    /// The row the table marks, as `settleSelection` and `keepSelectionInRange` place it.
    var shownSelection = 0
    /// The memo the selection is on, by id: it stays on it when the list changes (a filter, a
    /// reload, a restore, an edit: `settleSelection`). While a filter hides it, the table marks
    /// its nearest shown neighbour and comes back to it once it is shown again; only when it
    /// is gone from the library does the selection move to a neighbour for good.
    public internal(set) var selectedMemoID: Int64?
    /// First visible row of the table.
    public var scrollOffset = 0
    /// Index into `deletedMemos` in the Recently Deleted view.
    public var deletedSelection = 0
    /// Index into the picker's choices.
    public var pickerSelection = 0
    /// When the open input picker last asked for its list (`Action.inputListDue`), so a
    /// microphone plugged in while it is open appears in it.
    public var inputsAskedAt: Double?
    /// The ALSA helper plugins the open picker (inputs or outputs) left out, named on its
    /// title row; set with the list it belongs to.
    public var hiddenDevices: [String] = []
    /// The first row of the help screen shown (it scrolls when the keys do not fit).
    public var helpScroll = 0
    /// The screen whose keys help shows (the one `?` was pressed on).
    public var helpScreen: KeyScreen = .memoTable
    /// Where a key that closes help goes back to.
    var modeUnderHelp: Mode = .browsing
    public var undoStack: [UndoEntry] = []
    /// The in and out points `(` `)` set on a memo, for `X` (`EditKeys`).
    public var editPoints: EditPoints?
    /// While `P` previews the kept part: the out point, where playback pauses.
    public var previewEnd: Double?
    /// The waveform band's memo and envelope, once the runner has read one.
    public var waveform: WaveformState?
    /// The recording's own waveform, which the band shows while it records (`LiveWaveform`).
    public var liveWaveform = LiveWaveform()

    // MARK: Screen

    public var mode: Mode = .browsing
    public var status: StatusMessage?
    public var width = 80
    public var height = 24
    /// Whether colours may be used (`NO_COLOR` unset, a colour terminal).
    public var usesColor = true
    /// The runner's clock at the last tick, seconds since 1970.
    public var now: Double = 0
    /// Whether the title prompt open is the one `s` opened (its ⏎ says "Saved", not
    /// "Renamed"). Every key typed into it is the title, however soon after `s`: it opens in
    /// the same reduce as the stop, and a guard that dropped keys typed within 0.3 s of `s`
    /// (meant for `s` then `r`) ate the first word of titles typed at once ("Quick…").
    public var titlePromptIsAfterStop = false
    /// Why ⏎ in the title prompt was refused (an empty title): shown above the prompt, which
    /// stays open.
    public var promptProblem: String?
    /// The local time zone's offset from UTC in seconds (for dates and default titles).
    public var utcOffset = 0
    /// Set once quitting was decided.
    public var isQuitting = false
    /// Slow work the effect runner is doing or has queued, oldest (the one running) first.
    public var work: [WorkInFlight] = []
    /// The most characters the title prompt takes: the library's rule (`MemoTitle.maximumLength`),
    /// handed in where the app is wired so that the reducer keeps no copy of it and does not
    /// reach into the library for it (STYLE 17). Unlimited until then: the library, which
    /// refuses a longer title, has the last word.
    public var titleMaximumLength = Int.max
    /// The ALSA device memos play on (`--device`, then the output picker `O`).
    public var playbackDevice = "default"
    /// The input the picker (`i`) chose, until it opens (then it is `chosenInput`).
    var pickedInput: InputName?
    /// The last input the picker chose that opened: a setting the app keeps (`SettingChange.input`).
    var chosenInput: InputName?
    /// Whether the app has said that its settings cannot be kept in the config file: said once.
    public var saidSettingsNotSaved = false
    /// Where the export prompt (`E`) proposes to write: the folder the app was started in.
    public var exportFolder = ""
    /// Whether the export prompt writes at the podcast loudness (`Tab` in it; kept for the
    /// next export, as the last used).
    public var exportsAtPodcastLoudness = false

    public init(width: Int = 80, height: Int = 24, usesColor: Bool = true, utcOffset: Int = 0, now: Double = 0) {
        self.width = width
        self.height = height
        self.usesColor = usesColor
        self.utcOffset = utcOffset
        self.now = now
    }

    /// The memos the table lists: all of them, or those whose title contains the filter or
    /// whose transcript matched it.
    public var visibleMemos: [MemoRow] {
        guard !filter.isEmpty else { return memos }
        let query = MemoQuery(filter)
        guard query.problem == nil else { return [] }
        return memos.filter {
            query.matchesTerms($0, utcOffset: utcOffset) && query.matchesWords($0, spokenMatch: transcriptMatch(for: $0.id) != nil)
        }
    }

    /// Puts the selection on memo `id` when the library has it; returns whether the table
    /// lists it (a filter may hide it: then the selection follows it until it is shown).
    @discardableResult
    public mutating func selectMemo(id: Int64?) -> Bool {
        guard let id, memos.contains(where: { $0.id == id }) else { return false }
        selectedMemoID = id
        guard let index = visibleMemos.firstIndex(where: { $0.id == id }) else { return false }
        shownSelection = index
        return true
    }

    /// After the list changed (`before` is the library's memos as they were): the selection
    /// back on its memo (`selectedMemoID`); while a filter hides it, on its nearest shown
    /// neighbour; when it is gone, on its nearest neighbour in `before` that is left, the one
    /// after it first (the row a deleted memo leaves is taken by the next one).
    mutating func settleSelection(before: [MemoRow]) {
        let visible = visibleMemos
        guard var followed = selectedMemoID else {
            selectedMemoID = visible.indices.contains(shownSelection) ? visible[shownSelection].id : visible.first?.id
            return
        }
        if let index = visible.firstIndex(where: { $0.id == followed }) {
            shownSelection = index
            return
        }
        if !memos.contains(where: { $0.id == followed }) {
            let left = Set(memos.map(\.id))
            guard let neighbour = Self.nearest(to: followed, in: before.map(\.id), where: left.contains) else {
                selectedMemoID = visible.indices.contains(shownSelection) ? visible[shownSelection].id : visible.first?.id
                return
            }
            followed = neighbour
            selectedMemoID = neighbour
        }
        let shown = Set(visible.map(\.id))
        if shown.contains(followed) {
            shownSelection = visible.firstIndex { $0.id == followed } ?? 0
        } else if let neighbour = Self.nearest(to: followed, in: memos.map(\.id), where: shown.contains) {
            shownSelection = visible.firstIndex { $0.id == neighbour } ?? 0
        } else {
            shownSelection = 0
        }
    }

    /// The id nearest `id` in `order` that `isWanted`: the ones after it, nearest first, then
    /// the ones before it; `nil` when `order` lacks `id` or none is wanted.
    private static func nearest(to id: Int64, in order: [Int64], where isWanted: (Int64) -> Bool) -> Int64? {
        guard let position = order.firstIndex(of: id) else { return nil }
        return order[(position + 1)...].first(where: isWanted) ?? order[..<position].last(where: isWanted)
    }

    /// The memo under the selection, if any.
    public var selectedMemo: MemoRow? {
        let visible = visibleMemos
        return visible.indices.contains(selection) ? visible[selection] : nil
    }

    /// The Recently Deleted memo under the selection, if any.
    public var selectedDeletedMemo: MemoRow? {
        deletedMemos.indices.contains(deletedSelection) ? deletedMemos[deletedSelection] : nil
    }

    /// What the status line shows, prompts aside: work that has run over half a second
    /// (`WorkInFlight.statusText`) unless an info message came after it began, else a message from an action (info or error)
    /// for its lifetime, else the input's diagnosis while monitoring (an input open and
    /// nothing playing: during playback the meter shows the memo, not the input). A diagnosis
    /// newer than an info message takes the line once that message has been readable
    /// (`StatusMessage.infoReadingTime`): "Listening to …" must not hide "Input is silent" for
    /// its whole lifetime, and "Saved …" must still be read.
    ///
    /// Voice activation's notices (the replay playing, a room close to the threshold) are
    /// shown like a diagnosis, after it. While voice activation listens for speech and has
    /// heard none lately, "too quiet" is not said: it is about speech, and the room's level
    /// is not speech (the room's warning says what matters there).
    ///
    /// A noise alert comes before all of these while it holds (`NoiseAlertState.message`):
    /// it is what a person watching the room waits for. Once quitting, what the app waits for
    /// comes first.
    public var statusLine: StatusMessage? {
        if !isQuitting, let alert = alert.message(at: now), input != nil {
            return StatusMessage(text: alert, kind: .alert)
        }
        if let running = visibleWork {
            // A message said since the work began (a refused key) is read first, for its lifetime.
            if let status, status.kind == .info, status.shownAt > running.startedAt, now < status.expires {
                return status
            }
            return workStatusLine
        }
        let diagnosis = inputDiagnosis.flatMap { input != nil && playback == nil && stream == nil ? $0 : nil }
            .flatMap { $0 == .tooQuiet && voice.silencesTooQuiet ? nil : $0 }
            .map { StatusMessage(text: diagnosisText($0), kind: .warning) }
        // A room too loud for voice activation, when the input itself is fine: like a
        // diagnosis, it replaces an info notice once the notice has been readable.
        // The replay says it is playing, like a diagnosis of the input (the room's level means
        // nothing meanwhile: the detector is not listening).
        let voiceNotice = voice.replayNotice.map { StatusMessage(text: $0, kind: .info) }
            ?? voice.noiseWarning.map { StatusMessage(text: $0, kind: .warning) }
        let streamLine = stream.map { StatusMessage(text: $0.statusText(recording: recording != .idle), kind: .info) }
        let scheduleLine = scheduleMessage.map { StatusMessage(text: $0, kind: .info) }
        guard let status else { return diagnosis ?? voiceNotice ?? streamLine ?? scheduleLine }
        if let diagnosis, status.kind == .info, inputDiagnosisSince > status.shownAt, status.hasBeenReadable(at: now) {
            return diagnosis
        }
        if diagnosis == nil, let voiceNotice, status.kind == .info, status.hasBeenReadable(at: now) { return voiceNotice }
        if diagnosis == nil, let scheduleLine, status.kind == .info, status.hasBeenReadable(at: now) { return scheduleLine }
        return status
    }

    /// The diagnosis in words; a silent input whose capture switch is known to be off says
    /// so, and offers the key that switches it on.
    func diagnosisText(_ diagnosis: InputDiagnosis) -> String {
        guard diagnosis == .silent, captureGain?.isOn == false else { return diagnosis.message(for: input?.kind ?? .device) }
        return "Input is silent: the capture switch is off. Press M to switch it on."
    }

    /// The work running now, once it has run long enough to be shown (`WorkInFlight.visibleAfter`).
    public var visibleWork: WorkInFlight? {
        guard let running = work.first, now - running.startedAt >= WorkInFlight.visibleAfter else { return nil }
        return running
    }

    /// The line the work running now takes on the status line, once it is shown: also above
    /// the title prompt, which opens while the memo is still being saved.
    public var workStatusLine: StatusMessage? {
        guard let running = visibleWork else { return nil }
        return StatusMessage(text: running.statusText(at: now) + (isQuitting ? " Quitting when done." : ""), kind: .info)
    }

    /// Whether the title prompt is up with a line above it (two status rows): why ⏎ was
    /// refused, or the work that goes on under it.
    public var showsWorkAbovePrompt: Bool {
        switch mode {
        case .renaming: promptProblem != nil || visibleWork != nil
        case .exporting, .openingStream, .labelingMarker, .tagging: promptProblem != nil
        default: false
        }
    }

    /// Opens the title prompt for memo `id` with `title` selected, so typing replaces it.
    /// - Parameter afterStop: `s` opened it (or the save it started ended with no prompt up).
    public mutating func openTitlePrompt(id: Int64, title: String, afterStop: Bool) {
        mode = .renaming(id: id, field: TextField(title, maximumLength: titleMaximumLength, selected: true))
        titlePromptIsAfterStop = afterStop
        promptProblem = nil
    }

    /// Whether the library is still being opened (the table says so).
    public var isLibraryLoading: Bool {
        work.contains { $0.kind == .openingLibrary }
    }

    /// Whether work of this kind is in flight.
    func hasWork(_ matches: (WorkInFlight.Kind) -> Bool) -> Bool {
        work.contains { matches($0.kind) }
    }

    /// Seconds recorded into the current memo.
    public var recordedSeconds: Double {
        guard let rate = input?.sampleRate, rate > 0 else { return 0 }
        return Double(recordedFrames) / Double(rate)
    }
}

/// The memo whose save `s` started, as the reducer knows it until the save answers: its id
/// and the title it will have (the recorded one, or what the prompt gave it meanwhile).
///
/// The runner is busy with the save (encoding the backlog of a long MP3 can take minutes),
/// so a title typed meanwhile is handed to it beside its queue (`AppEffects.pendingTitles`)
/// and stored in the index while the memo is still `recording`: a kill -9 or a failed save
/// keeps it (recovery keeps the row's title), and finishing the memo writes it into the file.
public struct SavingRecording: Sendable, Hashable {
    public var id: Int64
    public var title: String

    public init(id: Int64, title: String) {
        self.id = id
        self.title = title
    }
}

/// The memo table's order (`a` cycles through them): newest first, by title (A to Z, case
/// folded as the filter folds it; accents are not), or longest first. Ties keep the newest first.
public enum MemoSortOrder: Sendable, Hashable, CaseIterable {
    case newestFirst, byTitle, longestFirst

    /// The next order `a` chooses.
    public var next: MemoSortOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self).map { $0 + 1 } ?? 0) % all.count]
    }

    /// As the status line says it: "newest first".
    public var name: String {
        switch self {
        case .newestFirst: "newest first"
        case .byTitle: "by title"
        case .longestFirst: "longest first"
        }
    }

    /// `memos` in this order. Pure.
    public func sorted(_ memos: [MemoRow]) -> [MemoRow] {
        // Memos made at one time (a split's pieces) in the order they were made: (1) above (2).
        let newestFirst = memos.sorted { $0.created != $1.created ? $0.created > $1.created : $0.id < $1.id }
        switch self {
        case .newestFirst:
            return newestFirst
        case .byTitle:
            let keyed = newestFirst.enumerated().map { (key: $0.element.title.lowercased(), rank: $0.offset, memo: $0.element) }
            return keyed.sorted { ($0.key, $0.rank) < ($1.key, $1.rank) }.map(\.memo)
        case .longestFirst:
            let ranked = newestFirst.enumerated().map { (rank: $0.offset, memo: $0.element) }
            return ranked.sorted { ($0.memo.duration, -$0.rank) > ($1.memo.duration, -$1.rank) }.map(\.memo)
        }
    }
}

extension AppState {
    /// Puts `memos` in `sortOrder`, the selection kept on the memo it was on.
    public mutating func sortMemos() {
        let before = memos
        memos = sortOrder.sorted(memos)
        settleSelection(before: before)
    }
}
