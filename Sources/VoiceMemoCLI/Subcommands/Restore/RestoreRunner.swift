import Platform
import Foundation
import MemoLibrary
import Vocabulary

/// `restore`: a memo back from Recently Deleted.
///
/// MEMO is an id or a unique title prefix; an ambiguous prefix exits 2 listing the candidates,
/// a memo that is not there exits 1.
enum RestoreRunner {
    static func run(_ options: RestoreOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            try library.restore(id: try library.memo(matching: options.memo, deleted: true).id)
        }
        context.console.reply(.restored(memo))
        return .success
    }
}
