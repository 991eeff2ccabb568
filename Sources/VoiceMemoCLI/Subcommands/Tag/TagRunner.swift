import MemoLibrary
import SoundFiles
import Vocabulary

/// `tag`: a memo's tags changed, in the index and (where the format allows) in its file's
/// comment; with no changes, its tags printed one a line.
///
/// A refused tag exits 2 naming the rule, before the library is opened.
enum TagRunner {
    static func run(_ options: TagOptions, context: CommandContext) throws -> ExitCode {
        let change = try TagCheck.change(options.changes)
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: options.memo)
            return change.isEmpty ? memo : try library.changeTags(id: memo.id, change)
        }
        if change.isEmpty {
            context.console.writeOutput(memo.tags.map { $0 + "\n" }.joined())
            return .success
        }
        TagCheck.noteIndexOnly(memo, library: library, console: context.console)
        context.console.reply(.tagged(memo))
        return .success
    }
}

/// Tag checks done before the library is opened, so a bad tag is a usage error (exit 2).
enum TagCheck {
    /// The change `words` ask for.
    static func change(_ words: [String]) throws -> MemoTag.Change {
        do {
            return try MemoTag.change(words)
        } catch .tag(let problem) {
            throw LibraryAccess.failure(.invalidTag(problem))
        } catch {
            throw CommandFailure(error.description, exitCode: .usageError)
        }
    }

    /// Says on standard error when the memo's file does not carry its tags and star (an index
    /// rebuilt from the files would not have them).
    static func noteIndexOnly(_ memo: Memo, library: MemoLibrary, console: Console) {
        guard !library.tagsAreWrittenToFile(memo) else { return }
        let formatHasRoom = TitleRewrite.method(format: memo.format, encoding: memo.encoding).map(TitleRewrite.writesComment) == true
        if memo.state == .recording, formatHasRoom {
            console.printErrorMessage(
                "note: memo \(memo.id) is being recorded; its file gets the tags and star when the recording stops")
            return
        }
        let why: String =
            switch memo.state {
            case .missing: "memo \(memo.id)'s file is missing"
            case .damaged: "memo \(memo.id)'s file cannot be read"
            case .complete, .recovered, .recording:
                library.sharedFileReason(memo)
                    ?? (memo.format == .mp3
                        ? "an MP3 file's only tag (ID3v1) has no room for them"
                        : "a \(memo.format.displayName) file coded as \(memo.encoding.rawValue) cannot be re-tagged "
                            + "without encoding its audio again")
            }
        console.printErrorMessage("note: the tags and star are kept in the index only: \(why)")
    }
}
