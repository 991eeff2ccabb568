import Platform
import Foundation
import MemoLibrary
import Vocabulary
import AppRuntime
import Transcription

/// `transcribe`: a memo's words with their times.
enum TranscribeRunner {
    static func run(_ options: TranscribeOptions, context: CommandContext) throws -> ExitCode {
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
            transcript = try MemoTranscription.transcribeAndStore(
                memo, in: library, modelDirectory: configuration.transcriptionModel ?? SpeechModel.defaultDirectory,
                titlesFromWords: configuration.autoTitle ?? true, console: context.console, eventLog: eventLog)
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

    /// The words in lines, each starting with its first word's time: a new line after a pause of
    /// half a second or more, after 12 words, or where the speaker changes; in a meeting memo
    /// each line names its speaker after the time ("Me: ", "Them: ").
    static func lines(_ words: [TranscriptWord]) -> [String] {
        var lines: [String] = []
        var current: [TranscriptWord] = []
        func flush() {
            guard let first = current.first else { return }
            let speaker = first.speaker.map { $0.label + ": " } ?? ""
            lines.append(
                MemoTranscription.timestamp(first.start) + "  " + speaker
                    + TerminalText.safe(current.map(\.word).joined(separator: " ")))
            current = []
        }
        for word in words {
            if let last = current.last,
                word.start - last.end >= 0.5 || current.count >= 12 || word.speaker != last.speaker
            {
                flush()
            }
            current.append(word)
        }
        flush()
        return lines
    }

    static func json(_ transcript: Transcript, id: Int64) -> JSONValue {
        .object([
            ("id", .int(id)),
            (
                "words",
                .array(
                    transcript.words.map { word in
                        var fields: [(String, JSONValue)] = [
                            ("word", .string(word.word)), ("start", .number(word.start)), ("end", .number(word.end)),
                        ]
                        // A meeting memo's words name their speaker; others' have no such field.
                        if let speaker = word.speaker { fields.append(("speaker", .string(speaker.label))) }
                        return .object(fields)
                    })
            ),
            ("text", .string(transcript.text)),
        ])
    }
}
