import Foundation
import MemoLibrary
import Vocabulary
import Metering

/// `split`: a memo becomes two new memos, cut at a time; the original goes to Recently Deleted.
enum SplitRunner {
    static func run(_ options: SplitOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let result = try LibraryAccess.perform { () throws(MemoLibraryError) -> EditResult in
            let memo = try library.memo(matching: options.memo)
            return try library.split(id: memo.id, atFrame: MemoEdit.frame(options.time, of: memo), at: Date())
        }
        MemoEdit.report(result, json: options.json, context: context)
        return .success
    }
}
