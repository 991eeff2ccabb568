import Vocabulary
import Metering

/// What each key does, by mode. Part of `reduce`.
enum KeyHandling {
    static func handle(_ key: Key, in state: inout AppState) -> [Effect] {
        if state.isQuitting {
            // Once quitting, every key is answered with what the app is waiting for.
            let waiting = state.work.first.map { "\($0.summary)…" } ?? "Quitting…"
            state.say("\(waiting) The app quits when it is done.")
            return []
        }
        switch state.mode {
        case .browsing: return browse(key, &state)
        case .filtering(var field): return filter(key, &field, &state)
        case .renaming(let id, var field): return rename(key, id: id, &field, &state)
        case .exporting(let id, var field): return ExportKeys.prompt(key, id: id, &field, &state)
        case .openingStream(var field): return StreamKeys.prompt(key, &field, &state)
        case .labelingMarker(let memoID, let time, var field): return MarkerKeys.labelPrompt(key, memoID: memoID, time: time, &field, &state)
        case .tagging(let id, var field): return TagKeys.prompt(key, id: id, &field, &state)
        case .confirmingPurge(let id): return confirmPurge(key, id: id, &state)
        case .confirmingQuit: return confirmQuit(key, &state)
        case .confirmingEdit(let request): return EditKeys.confirm(key, request, &state)
        case .help:
            if !HelpLayout.scroll(key, &state) { state.mode = state.modeUnderHelp }
            return []
        case .details(let id):
            // Back to the screen it was opened on: Recently Deleted for a deleted memo.
            state.mode = state.deletedMemos.contains { $0.id == id } ? .recentlyDeleted : .browsing
            return []
        case .recentlyDeleted: return onScreen(.recentlyDeleted, key, &state)
        case .pickingInput(let choices): return pickInput(key, choices: choices ?? [], &state)
        case .pickingOutput(let choices): return pickOutput(key, choices: choices ?? [], &state)
        case .voiceSettings: return onScreen(.voiceSettings, key, &state)
        case .transcript: return onScreen(.transcript, key, &state)
        }
    }

    // MARK: The memo table (its keys: `KeyTable.memoTable`)

    private static func browse(_ key: Key, _ state: inout AppState) -> [Effect] {
        onScreen(.memoTable, key, &state)
    }

    /// A key on a screen with a key table: its row's action (or why it is refused now); a
    /// printable key no row takes says so and points at `?`, on every screen alike.
    private static func onScreen(_ screen: KeyScreen, _ key: Key, _ state: inout AppState) -> [Effect] {
        if let binding = screen.binding(for: key) {
            if let refusal = binding.disabled(state) { return nothing(refusal, &state) }
            return binding.action(key, &state)
        }
        if case .character(let character) = key, !character.isWhitespace {
            return nothing("“\(character)” does nothing here. Press ? for the keys.", &state)
        }
        return []
    }

    static func recordKey(_ state: inout AppState) -> [Effect] {
        if state.voice.isArmed { return nothing(VoiceKeys.recordRefusal, &state) }
        return PlaybackUpdate.stoppingPlayback(before: recordPauseResume(&state), &state)
    }

    /// `s` when no stream or memo plays: voice activation off while it waits, else the recording stops.
    static func stopKey(_ state: inout AppState) -> [Effect] {
        if state.voice.isArmed, state.recording == .idle { return VoiceKeys.toggle(&state) }
        return stop(&state)
    }

    static func renameSelected(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedMemo else { return nothing("No memo to rename.", &state) }
        state.openTitlePrompt(id: memo.id, title: memo.title, afterStop: false)
        return []
    }

    static func nextSortOrder(_ state: inout AppState) -> [Effect] {
        state.sortOrder = state.sortOrder.next
        state.sortMemos()
        state.say("Memos \(state.sortOrder.name); a changes the order.")
        return []
    }

    static func showDetails(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedMemo else { return nothing("No memo to show the details of.", &state) }
        return openDetails(of: memo.id, &state)
    }

    /// `I`'s screen for memo `id`; its markers and transcript state are read from the index.
    private static func openDetails(of id: Int64, _ state: inout AppState) -> [Effect] {
        state.mode = .details(id: id)
        if state.memoExtras?.memoID != id { state.memoExtras = nil }
        return [.loadMemoDetails(memoID: id)]
    }

    /// `I` in Recently Deleted: the selected deleted memo's details (why it is there among them).
    static func showDeletedDetails(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedDeletedMemo else { return nothing("No memo to show the details of.", &state) }
        return openDetails(of: memo.id, &state)
    }

    /// `d`: the selected memo to Recently Deleted at once; `u` brings it back, so nothing asks.
    static func deleteSelected(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedMemo else { return nothing("No memo to delete.", &state) }
        state.memos.removeAll { $0.id == memo.id }
        // Shown in Recently Deleted at once: the runner may still be busy with earlier work.
        var deleted = memo
        deleted.deletedAt = state.now
        deleted.deletionReason = .deleted
        state.deletedMemos.removeAll { $0.id == memo.id }
        state.deletedMemos.insert(deleted, at: 0)
        state.undoStack.append(.deleted(id: memo.id, title: memo.title))
        state.say("Moved “\(memo.title)” to Recently Deleted. Press u to undo.")
        return PlaybackUpdate.stoppingPlayback(ofMemo: memo.id, &state) + [.deleteMemo(id: memo.id)]
    }

    static func openRecentlyDeleted(_ state: inout AppState) -> [Effect] {
        state.mode = .recentlyDeleted
        state.deletedSelection = 0
        return []
    }

    static func openInputPicker(_ state: inout AppState) -> [Effect] {
        state.mode = .pickingInput(choices: nil)
        state.pickerSelection = 0
        state.inputsAskedAt = state.now
        return [.listInputs]
    }

    static func openOutputPicker(_ state: inout AppState) -> [Effect] {
        state.mode = .pickingOutput(choices: nil)
        state.pickerSelection = 0
        return [.listOutputs]
    }

    static func resetClip(_ state: inout AppState) -> [Effect] {
        state.clipLatch.reset()
        for index in state.meters.indices { state.meters[index].peakHold.reset() }
        state.say("Clip indicator and peak hold reset.")
        return []
    }

    /// `C`: live captions on or off; on again after they stopped, they start afresh.
    static func toggleCaptions(_ state: inout AppState) -> [Effect] {
        state.captions.isOn.toggle()
        if state.captions.isOn {
            state.captions.clear()
            state.say(
                state.recording == .idle
                    ? "Live captions on: draft words show under the meter while recording."
                    : "Live captions on: the draft shows under the meter.")
        } else {
            state.say("Live captions off.")
        }
        return []
    }

    static func quitKey(_ state: inout AppState) -> [Effect] {
        if state.recording != .idle || state.voice.isRecordingTake {
            state.mode = .confirmingQuit
            return []
        }
        state.isQuitting = true
        return [.quit]
    }

    static func nextMeterMode(_ state: inout AppState) -> [Effect] {
        state.meterMode = state.meterMode.next
        state.say(
            state.playback == nil
                ? state.meterMode.descriptor.explanation
                : state.meterMode.descriptor.explanation + " While a memo plays, its levels show as digital peak.")
        return []
    }

    /// Esc on the table: clears the search, else the status line.
    static func clearFilter(_ state: inout AppState) -> [Effect] {
        guard !state.filter.isEmpty else {
            state.status = nil
            return []
        }
        state.filter = ""
        return TranscriptUpdate.filterChanged(&state)
    }

    static func moveMemoSelection(_ key: Key, _ state: inout AppState) -> [Effect] {
        _ = moveSelection(key, &state.selection, count: state.visibleMemos.count, page: state.layout.tableRows)
        return []
    }

    private static func recordPauseResume(_ state: inout AppState) -> [Effect] {
        switch state.recording {
        case .idle:
            guard state.input != nil else {
                return nothing("No input is open, so there is nothing to record. Press i to choose an input.", &state)
            }
            let time = CivilTime(seconds: state.now, utcOffset: state.utcOffset)
            return [
                .startRecording(
                    title: MemoTitle.defaultTitle(
                        year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
                        second: time.second))
            ]
        case .recording:
            state.recording = .paused
            state.say("Paused. Press r to resume, s to stop and save.")
            return [.pauseRecording]
        case .paused:
            state.recording = .recording
            state.say("Recording again.")
            return [.resumeRecording]
        }
    }

    private static func stop(_ state: inout AppState) -> [Effect] {
        guard state.recording != .idle else { return nothing("Nothing to stop. Press r to record, ⏎ to play.", &state) }
        // The runner detaches the recording at once and saves it beside the loop; the title
        // prompt opens now, not when the save is done (encoding a long MP3 takes minutes).
        state.recording = .idle
        if let id = state.recordingMemoID {
            let title = state.recordingTitle ?? ""
            state.savingRecording = SavingRecording(id: id, title: title)
            state.openTitlePrompt(id: id, title: title, afterStop: true)
        }
        return [.stopRecording]
    }

    static func undo(_ state: inout AppState) -> [Effect] {
        guard let entry = state.undoStack.popLast() else { return nothing("Nothing to undo.", &state) }
        switch entry {
        case .deleted(let id, let title):
            // Restored or purged by another process since (the table shows what the index has).
            guard state.deletedMemos.contains(where: { $0.id == id }) else {
                state.fail(UndoEntry.restoredElsewhere(title))
                return []
            }
            showRestored(id, &state)
            state.selectMemo(id: id)
            state.say("Restored “\(title)”.")
            return [.restoreMemo(id: id)]
        case .renamed(let id, let previousTitle, let title):
            if state.savingRecording?.id == id {
                // Still being saved (not in the table yet): the runner takes the title with the save.
                state.retitleSave(previousTitle)
                state.say("Title back to “\(previousTitle)”.")
                return [.renameMemo(id: id, title: previousTitle)]
            }
            // Renamed or deleted by another process since: their title stays. The runner checks
            // again against the index, for a change the app has not seen yet.
            let current = state.memos.first { $0.id == id }?.title
            guard current == title else {
                state.fail(UndoEntry.changedElsewhere(title, now: current))
                return []
            }
            if let index = state.memos.firstIndex(where: { $0.id == id }) { state.memos[index].title = previousTitle }
            state.selectMemo(id: id)
            state.say("Title back to “\(previousTitle)”.")
            return [.undoRename(id: id, title: previousTitle, replacing: title)]
        case .edited(let originalID, let title, let madeIDs):
            return EditKeys.undo(originalID: originalID, title: title, madeIDs: madeIDs, &state)
        case .retagged(let id, let title, let previousTags, let previousStarred):
            return TagKeys.undo(id: id, title: title, tags: previousTags, starred: previousStarred, &state)
        }
    }

    // MARK: Prompts

    private static func filter(_ key: Key, _ field: inout TextField, _ state: inout AppState) -> [Effect] {
        switch key {
        case .enter:
            state.mode = .browsing
            if let problem = MemoQuery(state.filter).problem { state.fail("Find: \(problem).") }
        case .escape:
            state.filter = ""
            state.mode = .browsing
            return TranscriptUpdate.filterChanged(&state)
        case .up, .down, .pageUp, .pageDown:
            _ = moveSelection(key, &state.selection, count: state.visibleMemos.count, page: state.layout.tableRows)
        default:
            field.apply(key)
            state.mode = .filtering(field)
            guard field.text != state.filter else { return [] }
            // The selection stays on its memo while it matches (`settleSelection`).
            state.filter = field.text
            return TranscriptUpdate.filterChanged(&state)
        }
        return []
    }

    private static func rename(_ key: Key, id: Int64, _ field: inout TextField, _ state: inout AppState) -> [Effect] {
        switch key {
        case .enter:
            guard let memo = state.memos.first(where: { $0.id == id }) else { return renameWhileSaving(id: id, field, &state) }
            // Unedited (even a title the field could not hold whole): nothing to change.
            if field.text == String(memo.title.prefix(field.maximumLength)) { return closePrompt(&state) }
            guard let title = acceptedTitle(field, keeping: memo.title, &state) else { return [] }
            let afterStop = state.titlePromptIsAfterStop
            _ = closePrompt(&state)
            guard title != memo.title else { return [] }
            state.undoStack.append(.renamed(id: id, previousTitle: memo.title, title: title))
            if let index = state.memos.firstIndex(where: { $0.id == id }) { state.memos[index].title = title }
            // The prompt `s` opened names the memo just recorded: to its user it is saved
            // under that title, whether the save ended before ⏎ or after.
            state.say(
                afterStop
                    ? "Saved “\(title)” (\(DisplayFormat.elapsedTime(seconds: memo.duration))). Press u to undo the title."
                    : "Renamed to “\(title)”. Press u to undo.")
            return [.renameMemo(id: id, title: title)]
        case .escape:
            return closePrompt(&state)
        default:
            field.apply(key)
            state.promptProblem = nil
            state.mode = .renaming(id: id, field: field)
        }
        return []
    }

    private static func closePrompt(_ state: inout AppState) -> [Effect] {
        state.mode = .browsing
        state.promptProblem = nil
        state.titlePromptIsAfterStop = false
        return []
    }

    /// The prompt's text as a title, or `nil` with the prompt left open and the reason above
    /// it (an empty title is not one; Esc keeps the old title).
    private static func acceptedTitle(_ field: TextField, keeping old: String, _ state: inout AppState) -> String? {
        do {
            return try MemoTitle.accepted(field.text)
        } catch {
            let reason = error.description
            state.promptProblem = reason.prefix(1).uppercased() + reason.dropFirst() + ": type one, or Esc keeps “\(old)”."
            return nil
        }
    }

    /// Enter in the prompt `s` opened, while the memo is still being saved (it is not in the
    /// table yet): the title is handed to the runner, which applies it during the save.
    private static func renameWhileSaving(id: Int64, _ field: TextField, _ state: inout AppState) -> [Effect] {
        guard let saving = state.savingRecording, saving.id == id else { return closePrompt(&state) }
        if field.text == String(saving.title.prefix(field.maximumLength)) { return closePrompt(&state) }
        guard let title = acceptedTitle(field, keeping: saving.title, &state) else { return [] }
        _ = closePrompt(&state)
        guard title != saving.title else { return [] }
        state.undoStack.append(.renamed(id: id, previousTitle: saving.title, title: title))
        state.retitleSave(title)
        state.say("Saving as “\(title)”. Press u to undo the title.")
        return [.renameMemo(id: id, title: title)]
    }

    private static func confirmPurge(_ key: Key, id: Int64, _ state: inout AppState) -> [Effect] {
        state.mode = .recentlyDeleted
        guard let index = state.deletedMemos.firstIndex(where: { $0.id == id }) else { return [] }
        guard key == .character("y") || key == .character("Y") else {
            state.say("Not purged: “\(state.deletedMemos[index].title)” stays in Recently Deleted.")
            return []
        }
        let memo = state.deletedMemos.remove(at: index)
        state.undoStack.removeAll { entry in
            if case .deleted(let deletedID, _) = entry { return deletedID == id }
            return false
        }
        state.say("Purged “\(memo.title)” for good.")
        return [.purgeMemo(id: id)]
    }

    private static func confirmQuit(_ key: Key, _ state: inout AppState) -> [Effect] {
        state.mode = .browsing
        guard key == .character("y") || key == .character("Y") else { return [] }
        state.isQuitting = true
        // Asked while recording: stop and save first. Asked while work ran: it finishes first.
        guard state.recording != .idle || state.voice.isRecordingTake else { return [.quit] }
        let stop: [Effect] = state.recording != .idle ? [.stopRecording] : []
        state.recording = .idle
        return stop + [.quit]
    }

    // MARK: Lists

    // Recently Deleted's keys (their rows: `KeyTable.recentlyDeleted`).

    static func restoreSelected(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedDeletedMemo else { return nothing("Recently Deleted is empty.", &state) }
        showRestored(memo.id, &state)
        state.say("Restored “\(memo.title)”.")
        return [.restoreMemo(id: memo.id)]
    }

    static func askPurge(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedDeletedMemo else { return nothing("Recently Deleted is empty.", &state) }
        state.mode = .confirmingPurge(id: memo.id)
        return []
    }

    static func moveDeletedSelection(_ key: Key, _ state: inout AppState) -> [Effect] {
        _ = moveSelection(key, &state.deletedSelection, count: state.deletedMemos.count, page: state.layout.tableRows)
        return []
    }

    /// What a key does in a picker (inputs, outputs): moves the selection, chooses the
    /// selected entry (closing the picker), closes it (Esc, its own key, `q`), or nothing.
    private enum PickerKey {
        case handled
        case chose(Int)
    }

    private static func picker(_ key: Key, count: Int, closingKey: Character, _ state: inout AppState) -> PickerKey {
        if moveSelection(key, &state.pickerSelection, count: count, page: state.layout.tableRows) { return .handled }
        switch key {
        case .enter:
            state.mode = .browsing
            return (0..<count).contains(state.pickerSelection) ? .chose(state.pickerSelection) : .handled
        case .escape, .character(closingKey), .character("q"):
            state.mode = .browsing
        default:
            break
        }
        return .handled
    }

    private static func pickInput(_ key: Key, choices: [InputChoice], _ state: inout AppState) -> [Effect] {
        guard case .chose(let index) = picker(key, count: choices.count, closingKey: "i", &state) else { return [] }
        guard state.recording == .idle else {
            return nothing("Stop the recording (s) before changing the input.", &state)
        }
        let choice = choices[index]
        // The old input closes at once: no frozen meter while the new one opens.
        state.input = nil
        state.meters = []
        state.say("Opening \(choice.source)…")
        state.pickedInput = choice.source
        return [.selectInput(source: choice.source)]
    }

    private static func pickOutput(_ key: Key, choices: [OutputChoice], _ state: inout AppState) -> [Effect] {
        guard case .chose(let index) = picker(key, count: choices.count, closingKey: "O", &state) else { return [] }
        let device = choices[index].device
        state.playbackDevice = device
        state.say(
            state.playback == nil
                ? "Memos play on \(device)."
                : "Memos play on \(device) from the next ⏎; this one goes on where it plays.")
        return [.selectOutput(device: device)]
    }

    /// Moves memo `id` from Recently Deleted back into the table (before the runner answers).
    static func showRestored(_ id: Int64, _ state: inout AppState) {
        guard let index = state.deletedMemos.firstIndex(where: { $0.id == id }) else { return }
        var memo = state.deletedMemos.remove(at: index)
        memo.deletedAt = nil
        memo.deletionReason = nil
        if !state.memos.contains(where: { $0.id == id }) {
            state.memos.append(memo)
            state.memos = state.sortOrder.sorted(state.memos)
        }
    }

    /// Moves a list selection for the navigation keys; returns whether `key` was one.
    private static func moveSelection(_ key: Key, _ selection: inout Int, count: Int, page: Int) -> Bool {
        let last = max(count - 1, 0)
        let page = max(page, 1)
        switch key {
        case .up, .character("k"): selection = max(selection - 1, 0)
        case .down, .character("j"): selection = min(selection + 1, last)
        case .pageUp: selection = max(selection - page, 0)
        case .pageDown: selection = min(selection + page, last)
        case .home, .character("g"): selection = 0
        case .end, .character("G"): selection = last
        default: return false
        }
        return true
    }

    static func nothing(_ message: String, _ state: inout AppState) -> [Effect] {
        state.say(message)
        return []
    }
}

extension AppState {
    /// The memo being saved will have `title`: the reducer's copy and the work's line say so.
    mutating func retitleSave(_ title: String) {
        savingRecording?.title = title
        for index in work.indices {
            if case .saving = work[index].kind { work[index].kind = .saving(title: title) }
        }
    }
}
