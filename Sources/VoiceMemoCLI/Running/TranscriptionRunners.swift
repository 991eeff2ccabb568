import Platform
import Foundation
import MemoLibrary
import Vocabulary
import AppRuntime
import Transcription

/// `transcribe` and `search`: a memo's words with their times, and memos by their words.
enum TranscriptionRunners {
    static func transcribe(_ options: TranscribeOptions, context: CommandContext) throws -> ExitCode {
        let configuration = try context.configuration()
        if configuration.transcribeMode == .off {
            throw CommandFailure(
                "transcription is off (transcribe = off in \(ConfigurationFile.path(environment: context.environment))); "
                    + "set transcribe = manual or auto to allow it")
        }
        let library = try LibraryAccess.open(context)
        defer { library.close() }
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in try library.memo(matching: options.memo) }
        try checkTranscribable(memo)
        let stored = try LibraryAccess.perform { () throws(MemoLibraryError) in try library.transcript(of: memo) }
        let transcript: Transcript
        if !options.again, let stored, stored.state == .complete {
            transcript = stored.transcript
        } else {
            let eventLog = EventLog(environment: context.environment)
            defer { eventLog?.close() }
            transcript = try transcribeAndStore(
                memo, in: library, modelDirectory: configuration.transcriptionModel ?? SpeechModel.defaultDirectory,
                console: context.console, eventLog: eventLog)
        }
        if options.json {
            context.console.printJSON(json(transcript, id: memo.id).serialized)
        } else if transcript.words.isEmpty {
            context.console.printErrorMessage("no words were recognised in memo \(memo.id) (English speech only)")
        } else {
            for line in lines(transcript.words) { context.console.printLine(line) }
        }
        return .success
    }

    static func search(_ options: SearchOptions, context: CommandContext) throws -> ExitCode {
        guard !TranscriptTokens.tokens(of: options.words).isEmpty else {
            throw CommandFailure(
                "WORDS \"\(TerminalText.safe(options.words))\" has no letters or digits to search for",
                exitCode: .usageError)
        }
        let library = try LibraryAccess.open(context, fileCheck: .names)
        defer { library.close() }
        // As the app's `/`: memos whose transcripts hold the words (best first), then those
        // only whose titles hold the text.
        let (spoken, titled) = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let spoken = try library.searchTranscripts(options.words)
            let found = Set(spoken.map(\.memo.id))
            let titled = try library.memos().filter {
                !found.contains($0.id) && TitleFilter.matches(title: $0.title, query: options.words)
            }
            return (spoken, titled)
        }
        let matched = spoken.count + titled.count
        if options.json {
            context.console.printJSON(JSONValue.array(spoken.map(json) + titled.map(titleJSON)).serialized)
            return matched == 0 ? .nothingMatched : .success
        }
        if matched == 0 {
            let untranscribed = (try? library.memosToTranscribe().count) ?? 0
            let note = untranscribed > 0 ? " (\(untranscribed) memo\(untranscribed == 1 ? " has" : "s have") no transcript yet: voicememo transcribe MEMO)" : ""
            context.console.printErrorMessage(
                "no memo's title or transcript holds \"\(TerminalText.safe(options.words))\"\(note)")
        }
        for hit in spoken {
            context.console.printLine(
                "\(hit.memo.id)  \(timestamp(hit.time))  \(TerminalText.safe(hit.memo.title))  \(TerminalText.safe(hit.snippet))")
        }
        for memo in titled {
            // The time column says where the match is: the title, not a moment of the memo.
            context.console.printLine("\(memo.id)  title       \(TerminalText.safe(memo.title))")
        }
        return matched == 0 ? .nothingMatched : .success
    }

    // MARK: Transcribing

    private static func checkTranscribable(_ memo: Memo) throws {
        switch memo.state {
        case .complete, .recovered: return
        case .recording:
            throw CommandFailure("memo \(memo.id) is being recorded; transcribe it once the recording stops")
        case .missing:
            throw CommandFailure("memo \(memo.id)'s file is missing (\(memo.path)); there is nothing to transcribe")
        case .damaged:
            throw CommandFailure("memo \(memo.id)'s file cannot be read as audio (\(memo.path))")
        }
    }

    /// `record` with `transcribe = auto`: transcribes the memo just saved, saying so on stderr
    /// (a progress line on a terminal). The recording is kept whatever happens here, so a
    /// failure is a message, not an exit status; a stop signal ends it with nothing stored.
    static func transcribeAfterRecording(_ memo: Memo, in library: MemoLibrary, model: String, context: CommandContext) {
        let console = context.console
        if let signal = StopSignals.pending {
            console.printErrorMessage("not transcribing memo \(memo.id): \(StopSignals.name(signal)) stopped the command")
            return
        }
        if !console.isErrorTerminal { console.printErrorMessage("transcribing memo \(memo.id) (--no-transcribe skips this)") }
        let eventLog = EventLog(environment: context.environment)
        defer { eventLog?.close() }
        do {
            let transcript = try transcribeAndStore(
                memo, in: library, modelDirectory: model, console: console, eventLog: eventLog,
                shouldStop: { StopSignals.pending != nil })
            let count = transcript.words.count
            console.printErrorMessage(
                count == 0 ? "memo \(memo.id): no words were recognised (English speech only)"
                    : "memo \(memo.id): \(count) word\(count == 1 ? "" : "s") transcribed (voicememo transcribe \(memo.id) prints them)")
        } catch let failure as CommandFailure {
            console.printErrorMessage("memo \(memo.id) is saved but not transcribed: \(failure.message)")
        } catch {
            console.printErrorMessage("memo \(memo.id) is saved but not transcribed: \(error)")
        }
    }

    private static func transcribeAndStore(
        _ memo: Memo, in library: MemoLibrary, modelDirectory: String, console: Console, eventLog: EventLog?,
        shouldStop: @escaping () -> Bool = { false }
    ) throws -> Transcript {
        let model: SpeechModel
        do {
            model = try SpeechModel(directory: modelDirectory)
        } catch {
            throw CommandFailure(error.description)
        }
        let transcriber = Transcriber(model: model)
        let transcript: Transcript
        let line = console.isErrorTerminal ? LevelBars(console: console, channels: 0) : nil
        var shownPercent = -1
        defer { if shownPercent >= 0 { line?.clear() } }
        do {
            transcript = try transcriber.transcribe(
                memo: memo,
                progress: { fraction in
                    eventLog?.note(String(format: "transcribed %.4f", fraction))
                    let percent = Int(fraction * 100)
                    if let line, percent != shownPercent {
                        shownPercent = percent
                        line.redraw(progressText(memo, fraction: fraction))
                    }
                },
                shouldStop: shouldStop)
        } catch {
            switch error {
            case .sound, .noAudio, .resampling:
                // The file is at fault: remember it, so a background job does not try it on every start.
                try? library.storeTranscriptionFailure(
                    forMemo: memo.id, problem: error.description, model: model.name, frames: memo.frames, at: Date())
            case .modelMissing, .recognizer:
                break
            case .cancelled:
                throw CommandFailure("interrupted; voicememo transcribe \(memo.id) does it later")
            }
            throw CommandFailure(error.description)
        }
        do {
            try library.storeTranscript(transcript, forMemo: memo.id, at: Date())
        } catch .readOnly {
            console.printErrorMessage("note: the library is read-only, so this transcript is not kept for search")
        } catch {
            throw LibraryAccess.failure(error)
        }
        return transcript
    }

    // MARK: Output

    /// The live line on a terminal's stderr: "transcribing memo 12 “Standup”: 40 %".
    static func progressText(_ memo: Memo, fraction: Double) -> String {
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        return "transcribing memo \(memo.id) “\(TerminalText.safe(String(memo.title.prefix(40))))”: \(percent) %"
    }

    /// The words in lines, each starting with its first word's time: a new line after a pause of
    /// half a second or more, or after 12 words.
    static func lines(_ words: [TranscriptWord]) -> [String] {
        var lines: [String] = []
        var current: [TranscriptWord] = []
        func flush() {
            guard let first = current.first else { return }
            lines.append(timestamp(first.start) + "  " + TerminalText.safe(current.map(\.word).joined(separator: " ")))
            current = []
        }
        for word in words {
            if let last = current.last, word.start - last.end >= 0.5 || current.count >= 12 { flush() }
            current.append(word)
        }
        flush()
        return lines
    }

    /// `00:01:02.3`.
    static func timestamp(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded(.down))
        let hours = tenths / 36_000
        let minutes = tenths / 600 % 60
        let wholeSeconds = tenths / 10 % 60
        return String(format: "%02d:%02d:%02d.%d", hours, minutes, wholeSeconds, tenths % 10)
    }

    static func json(_ transcript: Transcript, id: Int64) -> JSONValue {
        .object([
            ("id", .int(id)),
            (
                "words",
                .array(
                    transcript.words.map { word in
                        .object([("word", .string(word.word)), ("start", .number(word.start)), ("end", .number(word.end))])
                    })
            ),
            ("text", .string(transcript.text)),
        ])
    }

    static func json(_ hit: TranscriptHit) -> JSONValue {
        .object([
            ("id", .int(hit.memo.id)), ("title", .string(hit.memo.title)), ("path", .string(hit.memo.path)),
            ("matched", .string("transcript")), ("time", .number(hit.time)), ("snippet", .string(hit.snippet)),
        ])
    }

    /// A memo found by its title alone: no time, no snippet.
    static func titleJSON(_ memo: Memo) -> JSONValue {
        .object([
            ("id", .int(memo.id)), ("title", .string(memo.title)), ("path", .string(memo.path)),
            ("matched", .string("title")), ("time", .null), ("snippet", .null),
        ])
    }
}
