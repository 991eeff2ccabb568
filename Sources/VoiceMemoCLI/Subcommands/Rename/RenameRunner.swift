import Platform
import Foundation
import MemoLibrary
import Vocabulary

/// `rename`: a memo's new title, in the index and (where the format allows) in its file.
///
/// MEMO is an id or a unique title prefix; an ambiguous prefix exits 2 listing the candidates,
/// a memo that is not there exits 1.
enum RenameRunner {
    static func run(_ options: RenameOptions, context: CommandContext) throws -> ExitCode {
        try MemoTitleCheck.check(options.title)
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: options.memo)
            return try library.rename(id: memo.id, to: options.title)
        }
        if let shared = library.sharedFileReason(memo), memo.state == .complete || memo.state == .recovered {
            context.console.printErrorMessage("note: the new title is kept in the index only: \(shared)")
        } else if !library.titleIsWrittenToFile(memo) {
            context.console.printErrorMessage(indexOnlyRenameNote(memo))
        }
        context.console.reply(.renamed(memo))
        return .success
    }

    /// Why a renamed memo's file does not carry its new title (an index rebuilt from the files
    /// would show the old one).
    static func indexOnlyRenameNote(_ memo: Memo) -> String {
        switch memo.state {
        case .recording: "note: memo \(memo.id) is being recorded; its file gets the new title when the recording stops"
        case .missing: "note: memo \(memo.id)'s file is missing; the new title is kept in the index only"
        case .damaged: "note: memo \(memo.id)'s file cannot be read; the new title is kept in the index only"
        case .complete, .recovered:
            "note: the new title is kept in the index only: a \(memo.format.displayName) file coded as "
                + "\(memo.encoding.rawValue) cannot be re-tagged without encoding its audio again"
        }
    }
}
