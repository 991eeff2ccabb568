import Foundation
import MemoLibrary
import Vocabulary
import Metering

/// `enhance`: a memo becomes a new memo with its background noise suppressed; the original goes
/// to Recently Deleted.
enum EnhanceRunner {
    static func run(_ options: EnhanceOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let result = try LibraryAccess.perform { () throws(MemoLibraryError) -> EditResult in
            try library.enhance(id: try library.memo(matching: options.memo).id, at: Date())
        }
        MemoEdit.report(result, json: options.json, context: context)
        return .success
    }
}
