import Platform
import Foundation
import MemoLibrary
import Vocabulary
import Interface
import AppRuntime

/// `list`: the memos, as a table or as JSON.
enum ListRunner {
    static func run(_ options: ListOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(
            context, fileCheck: .names, pendingRecoveries: options.noWait ? .leave : .finish)
        var memos = try LibraryAccess.perform { () throws(MemoLibraryError) in try library.memos(deleted: options.deleted) }
            .filter { memo in (!options.starred || memo.isStarred) && options.tags.allSatisfy(memo.tags.contains) }
        if let filter = options.filter {
            let query = MemoQuery(filter)
            let spoken = try LibraryAccess.perform { () throws(MemoLibraryError) in
                query.spokenText.isEmpty ? [] : Set(try library.searchTranscripts(query.spokenText).map(\.memo.id))
            }
            memos = memos.filter { memo in
                let row = MemoRow(memo)
                return query.matchesTerms(row, utcOffset: TimeZone.current.secondsFromGMT(for: memo.created))
                    && query.matchesWords(row, spokenMatch: spoken.contains(memo.id))
            }
        }
        if options.json {
            let (transcripts, markers) = try LibraryAccess.perform { () throws(MemoLibraryError) in
                (try library.transcriptStates(), try library.allMarkers())
            }
            context.console.printJSON(Memo.jsonText(of: memos, transcripts: transcripts, markers: markers))
        } else {
            let width = TerminalWidth.columns(environment: context.environment, isTerminal: context.console.isOutputTerminal)
            let table = MemoTable(memos: memos, width: width, deleted: options.deleted, timeZone: .current)
            context.console.writeOutput(table.rendered)
        }
        return .success
    }
}
