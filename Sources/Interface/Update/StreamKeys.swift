import Metering

/// `o` and `R`: a network stream in the app. Part of `reduce`.
///
/// `o` opens the URL prompt; Enter with an http:// or https:// URL plays it (stopping a
/// memo that plays): the player connects and decodes on its own thread, and what it says
/// comes back as `Action.streamUpdate`. `s`, space and Esc stop it (a stream cannot pause,
/// so space stops it too). `R` records it into a memo: the input becomes the stream
/// (`url:URL`, a second connection to it, as `record --source url:` records) and a recording
/// starts on it, which `s` stops and names as any other; when the stream then stops, the
/// input before `R` is opened again.
enum StreamKeys {
    /// The longest URL the prompt takes.
    static let maximumURLLength = 4096

    static func open(_ state: inout AppState) -> [Effect] {
        state.mode = .openingStream(TextField(state.lastStreamURL, maximumLength: maximumURLLength, selected: true))
        state.promptProblem = nil
        return []
    }

    static func prompt(_ key: Key, _ field: inout TextField, _ state: inout AppState) -> [Effect] {
        TextPrompt.handle(key, &field, &state, reopen: { .openingStream($0) }, problem: problem(with:), submit: play)
    }

    /// Why `url` cannot be played, in words for above the prompt; `nil` when it may be.
    static func problem(with url: String) -> String? {
        if url.isEmpty { return "Type the stream's URL (http:// or https://), or Esc to cancel." }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return "“\(url)” is not an http:// or https:// URL: only those streams play."
        }
        guard StreamAddress(url) != nil else { return "“\(url)” names no server: type http://HOST[:PORT]/PATH." }
        if url.contains(where: \.isWhitespace) { return "A URL has no spaces: “\(url)”." }
        return nil
    }

    private static func play(_ url: String, _ state: inout AppState) -> [Effect] {
        var effects: [Effect] = []
        if state.playback != nil {
            state.playback = nil
            effects.append(.stopPlayback)
        }
        state.lastStreamURL = url
        state.stream = StreamState(url: url)
        // The stream's own line (connecting, buffering, its name) replaces what was said.
        if state.status?.kind == .info { state.status = nil }
        return effects + [.playStream(url: url)]
    }

    // The stream's part of the memo table's keys (`KeyTable`): each `nil` when no stream
    // plays on the table (a memo that plays comes first), leaving the key to the rest of its row.

    /// `s`: stops the stream, unless a recording or voice activation is on (`s` stops that first).
    static func stopOnS(_ state: inout AppState) -> [Effect]? {
        guard let stream = playingStream(state), state.recording == .idle, !state.voice.isArmed else { return nil }
        return stopAsked(stream, &state)
    }

    /// Space: a stream cannot pause, so it stops.
    static func stopOnSpace(_ state: inout AppState) -> [Effect]? {
        guard let stream = playingStream(state) else { return nil }
        return stopAsked(stream, &state)
    }

    /// Esc: stops the stream when there is no search to clear.
    static func stopOnEscape(_ state: inout AppState) -> [Effect]? {
        guard let stream = playingStream(state), state.filter.isEmpty else { return nil }
        return stopAsked(stream, &state)
    }

    /// ⏎: the selected memo plays instead of the stream.
    static func playMemoInstead(_ state: inout AppState) -> [Effect]? {
        guard playingStream(state) != nil, state.recording == .idle, state.selectedMemo != nil else { return nil }
        return stop(&state) + PlaybackUpdate.play(&state)
    }

    private static func playingStream(_ state: AppState) -> StreamState? {
        state.playback == nil ? state.stream : nil
    }

    private static func stopAsked(_ stream: StreamState, _ state: inout AppState) -> [Effect] {
        if state.recording != .idle, isInput(stream, state) {
            state.say("Recording the stream: s stops the recording first.")
            return []
        }
        if state.hasWork({ $0 == .startingRecording }) {
            // Its input is being opened on the runner: stopping now would switch inputs under it.
            state.say("The recording is being started; stop it (s) once the timer runs, then the stream.")
            return []
        }
        let label = stream.label
        let effects = stop(&state)
        state.say("Stopped \(label) after \(DisplayFormat.elapsedTime(seconds: stream.played)).")
        return effects
    }

    /// Stops the stream; the input before `R` comes back when the stream was the input.
    static func stop(_ state: inout AppState) -> [Effect] {
        guard let stream = state.stream else { return [] }
        state.stream = nil
        return [.stopStream] + restoringInput(stream, &state)
    }

    private static func isInput(_ stream: StreamState, _ state: AppState) -> Bool {
        state.input?.name == .url(stream.url)
    }

    private static func restoringInput(_ stream: StreamState, _ state: inout AppState) -> [Effect] {
        // Not while `R`'s recording is being started: the input it opens is the recording's.
        guard let previous = state.inputBeforeStreamRecording, state.recording == .idle,
            state.input == nil || isInput(stream, state), !state.hasWork({ $0 == .startingRecording })
        else { return [] }
        state.inputBeforeStreamRecording = nil
        state.input = nil
        state.meters = []
        return [.selectInput(source: previous)]
    }

    static func record(_ state: inout AppState) -> [Effect] {
        guard let stream = state.stream else {
            state.say("Nothing is streaming to record. Press o to open a stream's URL, then R.")
            return []
        }
        guard state.recording == .idle else {
            state.say("Already recording. Stop it (s) before recording the stream.")
            return []
        }
        guard !state.voice.isArmed else {
            state.say("Voice activation is on. Press v to turn it off before recording the stream.")
            return []
        }
        guard stream.phase == .playing else {
            state.say("The stream is not playing yet; press R once it plays.")
            return []
        }
        if !isInput(stream, state) { state.inputBeforeStreamRecording = state.input?.name ?? state.inputBeforeStreamRecording }
        // The old input closes at once, as the input picker closes it.
        state.input = nil
        state.meters = []
        state.say("Connecting to the stream to record it…")
        return [.recordStream(url: stream.url, title: stream.recordingTitle)]
    }

    /// The input failed or ended (`Action.inputFailed`, before the reducer forgets it): when it
    /// was the stream `R` recorded and the stream has stopped already (a file played to its
    /// end before its recording did), the input before `R` is opened again.
    static func inputEnded(_ state: inout AppState) -> [Effect] {
        guard state.stream == nil, let previous = state.inputBeforeStreamRecording,
            state.input?.name == .url(state.lastStreamURL)
        else { return [] }
        state.inputBeforeStreamRecording = nil
        return [.selectInput(source: previous)]
    }

    /// Applies the stream player's reports; other actions are not its business.
    static func apply(_ action: Action, to state: inout AppState) -> [Effect] {
        switch action {
        case .streamUpdate(let update):
            guard var stream = state.stream else { return [] }
            switch update {
            case .buffering:
                stream.phase = .buffering
            case .slow(let message):
                stream.slowNote = message
            case .playing(let name, let channels, let isLive):
                stream.phase = .playing
                stream.slowNote = nil
                stream.name = name
                stream.isLive = isLive
                if stream.meters.count != channels {
                    stream.meters = Array(repeating: ChannelMeter(holdTime: state.peakHoldTime), count: max(channels, 0))
                }
                if state.status?.kind == .info { state.status = nil }
            case .title(let title):
                stream.title = title
                // The new title shows at once, not after a notice's lifetime.
                if state.status?.kind == .info { state.status = nil }
            case .reconnecting(let message):
                stream.phase = .reconnecting(message: message)
            case .finished:
                state.stream = nil
                state.say("Finished playing \(stream.label).")
                return restoringInput(stream, &state)
            case .failed(let failure):
                state.stream = nil
                let message = failure.message
                state.fail(stream.phase == .playing ? "The stream stopped: \(message)." : "Cannot play the stream: \(message).")
                return restoringInput(stream, &state)
            }
            state.stream = stream
        case .streamProgress(let time, let snapshot):
            guard var stream = state.stream else { return [] }
            stream.played = snapshot.played.isFinite ? max(snapshot.played, 0) : 0
            if stream.meters.count != snapshot.channels.count {
                stream.meters = Array(repeating: ChannelMeter(holdTime: state.peakHoldTime), count: snapshot.channels.count)
            }
            for (index, level) in snapshot.channels.enumerated() {
                stream.meters[index].update(level, at: time)
            }
            state.stream = stream
        default:
            break
        }
        return []
    }
}
