import Platform
import Foundation
import MemoLibrary
import Vocabulary
import AppRuntime
import Transcription

/// `search`: memos by their words, then by their titles.
enum SearchRunner {
    static func run(_ options: SearchOptions, context: CommandContext) throws -> ExitCode {
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
                "\(hit.memo.id)  \(MemoTranscription.timestamp(hit.time))  \(TerminalText.safe(hit.memo.title))  \(snippetText(hit))")
        }
        // On a terminal, how to hear the first match (a pipe gets the lines alone).
        if let first = spoken.first, context.console.isOutputTerminal {
            context.console.printErrorMessage(
                "play it from there: voicememo play \(first.memo.id) --from \(MemoTranscription.timestamp(first.time))")
        }
        for memo in titled {
            // The time column says where the match is: the title, not a moment of the memo.
            context.console.printLine("\(memo.id)  title       \(TerminalText.safe(memo.title))")
        }
        return matched == 0 ? .nothingMatched : .success
    }

    /// A hit's snippet as its line shows it: after the speaker of the matching word in a
    /// meeting memo ("Them: …"), alone in any other.
    static func snippetText(_ hit: TranscriptHit) -> String {
        (hit.speaker.map { $0.label + ": " } ?? "") + TerminalText.safe(hit.snippet)
    }

    /// A hit as `--json` writes it; a meeting memo's also names the speaker of the matching word.
    static func json(_ hit: TranscriptHit) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .int(hit.memo.id)), ("title", .string(hit.memo.title)), ("path", .string(hit.memo.path)),
            ("matched", .string("transcript")), ("time", .number(hit.time)), ("snippet", .string(hit.snippet)),
        ]
        if let speaker = hit.speaker { fields.append(("speaker", .string(speaker.label))) }
        return .object(fields)
    }

    /// A memo found by its title alone: no time, no snippet.
    static func titleJSON(_ memo: Memo) -> JSONValue {
        .object([
            ("id", .int(memo.id)), ("title", .string(memo.title)), ("path", .string(memo.path)),
            ("matched", .string("title")), ("time", .null), ("snippet", .null),
        ])
    }
}
