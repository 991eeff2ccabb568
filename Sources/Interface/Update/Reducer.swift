import Metering

/// The app's update function: applies `action` to `state` and returns what the outside
/// world must do, as data. Pure: no I/O, no clock (time arrives in `.tick`).
///
/// After every call the selection is within the visible memos (0 when there are none)
/// and the table's scroll offset keeps it on screen. Every effect the runner performs is
/// in `state.work` from the call that emits it until its `workFinished`.
public func reduce(_ state: inout AppState, _ action: Action) -> [Effect] {
    switch action {
    case .tick, .playbackProgress, .clock:
        // Ticks emit no runner work (only the bell and an untracked read of the capture
        // control): they need no copy of the state to describe work.
        return reduceAction(&state, action)
    default:
        let before = state
        let effects = reduceAction(&state, action)
        let now = state
        state.work += effects.compactMap { WorkInFlight(for: $0, before: before, after: now) }
        let changed = SettingChange.between(before, now)
        return changed.isEmpty ? effects : effects + [.saveSettings(changed)]
    }
}

// Over 80 lines: one switch arm per action, each a line or a call; split, the actions would be
// spread over files for no gain in reading.
private func reduceAction(_ state: inout AppState, _ action: Action) -> [Effect] {
    let effects: [Effect]
    // The library's memos before the action: where a memo that goes stood.
    let memosBefore = state.memos
    switch action {
    case .key(let key):
        effects = KeyHandling.handle(key, in: &state)
    case .tick(let time, let snapshot):
        state.now = time
        if let status = state.status, status.expires <= time { state.status = nil }
        effects = snapshot.map { absorb($0, at: time, into: &state) } ?? []
    case .clock(let time):
        state.now = max(state.now, time)
        effects = []
    case .resize(let width, let height):
        state.width = max(width, 0)
        state.height = max(height, 0)
        effects = []
    case .inputOpened(let input):
        state.input = input
        if input.name == state.pickedInput {
            state.chosenInput = input.name
            state.pickedInput = nil
        }
        state.meters = Array(repeating: ChannelMeter(holdTime: state.peakHoldTime), count: max(input.channels, 0))
        // A new input counts its clips from 0.
        state.clipLatch = ClipLatch()
        state.inputDiagnosis = nil
        state.captureGain = nil
        if state.status?.kind == .error { state.status = nil }
        state.say("Listening to \(input.name).")
        effects = (input.hasCaptureMixer ? [.readCaptureGain] : []) + NoiseAlertUpdate.inputOpened(&state)
    case .inputFailed(let failure):
        // A choice that did not open is not kept.
        state.pickedInput = nil
        let reopening = StreamKeys.inputEnded(&state)
        state.input = nil
        state.meters = []
        state.recording = .idle
        state.recordedFrames = 0
        state.inputDiagnosis = nil
        state.captureGain = nil
        state.alert.armedWith = nil
        VoiceKeys.turnedOff(&state)
        state.fail(failure.message)
        effects = reopening
    case .inputsListed(let list):
        if case .pickingInput(let shown) = state.mode {
            // The current input is first: Enter keeps it. A list asked for again while the
            // picker is open keeps the selection on the input it was on, if it is still there.
            let selected = shown.flatMap { $0.indices.contains(state.pickerSelection) ? $0[state.pickerSelection].source : nil }
            state.mode = .pickingInput(choices: list.choices)
            state.pickerSelection = selected.flatMap { source in list.choices.firstIndex { $0.source == source } } ?? 0
            state.hiddenDevices = list.hidden
        }
        effects = []
    case .inputListDue(let time):
        state.now = max(state.now, time)
        guard state.inputListIsDue(at: time) else {
            effects = []
            break
        }
        state.inputsAskedAt = time
        effects = [.listInputs]
    case .outputsListed(let choices, let hidden):
        if case .pickingOutput = state.mode {
            state.mode = .pickingOutput(choices: choices)
            state.hiddenDevices = hidden
            // The current device selected: Enter keeps it.
            state.pickerSelection = choices.firstIndex { $0.device == state.playbackDevice } ?? 0
        }
        effects = []
    case .filesAdopted(let files):
        state.say(DroppedFile.announcement(files))
        effects = []
    case .libraryLoaded(let memos, let deleted):
        state.memos = state.sortOrder.sorted(memos)
        state.deletedMemos = deleted.sorted { ($0.deletedAt ?? $0.created) > ($1.deletedAt ?? $1.created) }
        // A saved, adopted or restored memo may want a transcript.
        effects = state.transcription.isEnabled && state.transcription.unavailable == nil ? [.transcribeNewMemos] : []
    case .transcriptMatchesFound, .transcriptLoaded, .transcription:
        effects = TranscriptUpdate.apply(action, to: &state)
    case .recordingStarted(let title, let memoID):
        state.recording = .recording
        state.recordedFrames = 0
        state.liveWaveform = LiveWaveform()
        state.captions.clear()
        state.recordingTitle = title
        state.recordingMemoID = memoID
        state.say("Recording “\(title)”.")
        effects = []
    case .scheduleReached(let time):
        state.now = max(state.now, time)
        effects = ScheduleUpdate.reached(at: time, &state)
    case .captions(let update):
        state.captions.apply(update)
        if case .stopped(let reason) = update { state.say("Live captions stopped: \(reason); the recording goes on.") }
        effects = []
    case .recordingSaved(var memo):
        // Stopped with `s`: its prompt opened at the stop (and may be closed by now). A title
        // given there after the runner finished the memo is still on its way: show it.
        let prompted = state.savingRecording?.id == memo.id
        if prompted, let saving = state.savingRecording { memo.title = saving.title }
        state.savingRecording = nil
        showSaved(memo, in: &state)
        // The save ran beside the loop: a prompt or list opened meanwhile is not taken away.
        if !prompted, !state.isQuitting, state.mode == .browsing {
            state.openTitlePrompt(id: memo.id, title: memo.title, afterStop: true)
        }
        state.say("Saved “\(memo.title)” (\(DisplayFormat.elapsedTime(seconds: memo.duration))).")
        effects = []
    case .recordingStoppedOnError(var memo, let stop):
        // The prompt `s` opened for it gives way to the reason (it would cover the status
        // line); a title already given there is the memo's. `e` renames it afterwards.
        if let saving = state.savingRecording, saving.id == memo.id { memo.title = saving.title }
        closePrompt(for: memo.id, in: &state)
        showSaved(memo, in: &state)
        state.fail("Recording stopped: \(stop.reason). What was recorded is saved as “\(memo.title)” (\(DisplayFormat.elapsedTime(seconds: memo.duration))).")
        effects = []
    case .recordingDiscarded(let failure):
        // Nothing was kept: the prompt `s` opened has no memo left to name.
        if let saving = state.savingRecording { closePrompt(for: saving.id, in: &state) }
        state.recording = .idle
        state.recordedFrames = 0
        state.recordingTitle = nil
        state.fail(failure.message)
        effects = []
    case .voiceTakeSaved(let memo):
        VoiceKeys.takeSaved(memo, &state)
        effects = [.reloadLibrary]
    case .voiceArmFailed(let failure):
        VoiceKeys.turnedOff(&state)
        state.fail(failure.message)
        effects = []
    case .streamUpdate, .streamProgress:
        effects = StreamKeys.apply(action, to: &state)
    case .memoEdited, .waveformLoaded:
        effects = EditKeys.apply(action, to: &state)
    case .playbackStarted, .playbackProgress, .playbackFinished, .playbackFailed, .markersLoaded:
        effects = PlaybackUpdate.apply(action, to: &state)
    case .memoDetailsLoaded(let extras):
        state.memoExtras = extras
        effects = []
    case .failed(let failure):
        state.fail(failure.message)
        effects = []
    case .exported(let copy):
        state.say(copy.message)
        effects = []
    case .exportRefused(let id, let typed, let failure):
        effects = ExportKeys.reopen(id: id, typed: typed, failure: failure, &state)
    case .exportPathCompletions(let id, let typed, let matches):
        ExportKeys.complete(id: id, typed: typed, matches: matches, &state)
        effects = []
    case .launched(let input):
        effects = [.selectInput(source: input), .openLibrary]
    case .inputSwitched(let sentence, let markerLabel):
        // It stays until replaced: the recording has a gap there.
        state.fail(sentence + ".")
        effects = state.recording == .idle ? [] : [.markRecording(label: markerLabel)]
    case .captureGainRead, .captureGainFailed:
        effects = CaptureGainUpdate.apply(action, to: &state)
    case .workFinished:
        if !state.work.isEmpty { state.work.removeFirst() }
        effects = []
    case .settingsNotSaved(let failure):
        if !state.saidSettingsNotSaved {
            state.saidSettingsNotSaved = true
            state.fail(failure.message)
        }
        effects = []
    case .workProgress(let fraction, let stage):
        if !state.work.isEmpty {
            state.work[0].fraction = fraction
            state.work[0].stage = stage
        }
        effects = []
    case .control(let request):
        effects = ControlRequests.handle(request, &state)
    }
    switch action {
    case .tick, .clock, .playbackProgress, .streamProgress:
        break  // The list does not change: no search for the selected memo at every tick.
    default:
        state.settleSelection(before: memosBefore)
    }
    state.keepSelectionInRange()
    return effects
}

/// Puts a memo just saved from a recording into the list, selected, and the recording to idle.
private func showSaved(_ memo: MemoRow, in state: inout AppState) {
    state.recording = .idle
    state.recordedFrames = 0
    state.recordingTitle = nil
    state.recordingMemoID = nil
    if !state.memos.contains(where: { $0.id == memo.id }) {
        state.memos.insert(memo, at: 0)
    }
    state.filter = ""
    state.selectMemo(id: memo.id)
}

/// Takes in one engine reading: levels into the meters, the recording state as the
/// engine says it is (it is the truth; the reducer's own guesses give way). Returns the
/// bell for each noise alert, and a read of the capture control when the input has just
/// turned silent (its switch may be off).
private func absorb(_ snapshot: EngineSnapshot, at time: Double, into state: inout AppState) -> [Effect] {
    if state.meters.count != snapshot.channels.count {
        state.meters = Array(repeating: ChannelMeter(holdTime: state.peakHoldTime), count: snapshot.channels.count)
    }
    for (index, level) in snapshot.channels.enumerated() {
        state.meters[index].update(level, at: time)
        if let ballistics = snapshot.ballistics { state.meters[index].update(ballistics, channel: index) }
    }
    state.clipLatch.observe(clipCount: snapshot.clipCount)
    state.momentaryLoudness = snapshot.ballistics?.momentaryLoudness
    state.shortTermLoudness = snapshot.ballistics?.shortTermLoudness
    if snapshot.recording != .idle, state.recording == .idle { state.liveWaveform = LiveWaveform() }
    state.recording = snapshot.recording
    state.recordedFrames = snapshot.recordedFrames
    if snapshot.recording == .recording, let loudest = snapshot.channels.map(\.peak).max() {
        state.liveWaveform.add(peak: Double(loudest), at: state.recordedSeconds)
    }
    var effects: [Effect] = []
    if snapshot.diagnosis != state.inputDiagnosis {
        state.inputDiagnosisSince = time
        if snapshot.diagnosis == .silent, state.input?.hasCaptureMixer == true { effects.append(.readCaptureGain) }
    }
    state.inputDiagnosis = snapshot.diagnosis
    VoiceKeys.absorb(snapshot.voiceActivation, into: &state)
    return effects + NoiseAlertUpdate.absorb(snapshot.noiseAlert, at: time, into: &state)
}

extension AppState {
    /// Shows an info message for a few seconds.
    mutating func say(_ text: String) {
        status = StatusMessage(text: text, kind: .info, expires: now + StatusMessage.infoLifetime)
    }

    /// A notice of background work nobody is waiting on (a transcript finished): shown only
    /// when the status line holds no live message, so it never hides what answered a person's
    /// own key (an edit's result and its "u brings it back", a refusal, an error).
    mutating func mention(_ text: String) {
        if let status, status.kind == .error || status.expires > now { return }
        say(text)
    }

    /// Shows an error until it is replaced or dismissed.
    mutating func fail(_ text: String) {
        status = StatusMessage(text: text, kind: .error)
    }

    /// Clamps the selections and scrolls the table so the selection is visible.
    mutating func keepSelectionInRange() {
        let visible = visibleMemos
        let count = visible.count
        shownSelection = count == 0 ? 0 : min(max(shownSelection, 0), count - 1)
        deletedSelection = deletedMemos.isEmpty ? 0 : min(max(deletedSelection, 0), deletedMemos.count - 1)
        let rows = max(layout.tableRows - (liveRecordingRow == nil ? 0 : 1), 1)
        let heights = visible.map { tableLines(for: $0) }
        if shownSelection < scrollOffset { scrollOffset = shownSelection }
        // Lines from the first shown memo through the selected one must fit.
        var shown = heights.isEmpty ? 0 : heights[max(min(scrollOffset, count - 1), 0)...shownSelection].reduce(0, +)
        while scrollOffset < shownSelection, shown > rows {
            shown -= heights[scrollOffset]
            scrollOffset += 1
        }
        // No empty rows below the last memo while earlier ones are scrolled away.
        var firstOfTail = count
        var tail = 0
        while firstOfTail > 0, tail + heights[firstOfTail - 1] <= rows {
            firstOfTail -= 1
            tail += heights[firstOfTail]
        }
        scrollOffset = max(min(scrollOffset, firstOfTail), 0)
    }

    /// The recording in progress — or being saved after `s`, before it joins the table — as the
    /// table's first row shows it: its title and what it is doing (`nil`: nothing records, or
    /// the table has fewer than three rows).
    public var liveRecordingRow: (title: String, tag: String)? {
        guard layout.tableRows >= 3 else { return nil }
        if recording != .idle, recordingMemoID != nil {
            return (recordingTitle ?? "", recording == .paused ? "[paused]" : "[recording]")
        }
        if let saving = savingRecording { return (saving.title, "[saving]") }
        return nil
    }

    /// Memo `memo` as its table row shows it: the voice take being recorded (its memo still
    /// `recording` in the index, 0 s and 0 B there until it is saved) counts its length from
    /// the detector's frames and its size from its file, tick by tick.
    public func shownRow(_ memo: MemoRow) -> MemoRow {
        guard memo.state == .recording, let status = voice.status, status.phase == .recording,
            let take = status.take, take.memoID == memo.id
        else { return memo }
        var shown = memo
        if let rate = input?.sampleRate, rate > 0 { shown.duration = Double(status.takeFrames) / Double(rate) }
        if let bytes = take.bytes { shown.size = bytes }
        return shown
    }

    /// Lines memo `memo` takes in the table: two when the filter found it by its words
    /// (its snippet goes beneath it) and the table has room for that, else one.
    public func tableLines(for memo: MemoRow) -> Int {
        transcriptMatch(for: memo.id) != nil && layout.tableRows >= 2 ? 2 : 1
    }

    /// The layout for the current size and input.
    public var layout: Layout {
        let statusText = statusLine.map { " " + $0.text } ?? ""
        let confirmationRows = confirmation(width: width - 1)?.rowsWanted(width: width - 1) ?? 1
        let statusLines =
            (mode == .browsing && DisplayWidth.of(statusText) > width) || showsWorkAbovePrompt || confirmationRows > 1
                || transcriptionBesideStatus != nil ? 2 : 1
        return Layout(
            width: width, height: height, channels: meterRowCount, statusLines: statusLines,
            waveformRows: waveform == nil && !showsLiveWaveform ? 0 : WaveformBandView.rows,
            captionRows: showsCaptions ? 1 : 0)
    }

    /// Whether the live captions' line shows: captions are on and an input is being recorded.
    public var showsCaptions: Bool {
        captions.isOn && recording != .idle && playback == nil
    }

    /// Whether the live captioner should run now (the runtime follows it after every action).
    public var wantsCaptions: Bool {
        captions.isWanted(recording: recording)
    }

    /// Whether the waveform band shows the recording being made (it records, nothing plays).
    public var showsLiveWaveform: Bool {
        recording != .idle && playback == nil
    }

    /// The mode the LED rows show: the player's levels are always `digital`.
    public var shownMeterMode: MeterMode {
        playback == nil && stream?.meters.isEmpty != false ? meterMode : .digital
    }

    /// How many LED rows the meter wants: one per channel, or M and S for loudness.
    var meterRowCount: Int {
        if let playback { return max(playback.meters.count, 1) }
        if let meters = stream?.meters, !meters.isEmpty { return meters.count }
        if meterMode == .loudness, input != nil { return 2 }
        return max(meters.count, input?.channels ?? 1)
    }
}

/// Ends the save's title prompt for memo `id`, if it is up, and forgets the save.
private func closePrompt(for id: Int64, in state: inout AppState) {
    if case .renaming(let prompted, _) = state.mode, prompted == id { state.mode = .browsing }
    if state.savingRecording?.id == id { state.savingRecording = nil }
}
