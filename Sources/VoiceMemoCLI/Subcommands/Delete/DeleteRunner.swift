import Platform
import Foundation
import MemoLibrary
import Vocabulary

/// `delete`: a memo to Recently Deleted.
///
/// MEMO is an id or a unique title prefix; an ambiguous prefix exits 2 listing the candidates,
/// a memo that is not there exits 1.
enum DeleteRunner {
    static func run(_ options: DeleteOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            try library.delete(id: try library.memo(matching: options.memo).id, at: Date())
        }
        context.console.reply(.deleted(memo))
        return .success
    }
}
