import Foundation
import MemoLibrary
import Vocabulary
import Metering

/// `trim`: a memo becomes a new memo of chosen frames (less its silences with
/// `--remove-silences`); the original goes to Recently Deleted.
enum TrimRunner {
    static func run(_ options: TrimOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let result = try LibraryAccess.perform { () throws(MemoLibraryError) -> EditResult in
            let memo = try library.editable(try library.memo(matching: options.memo).id, verb: "trimmed")
            let start = options.from.map { MemoEdit.frame($0, of: memo) } ?? 0
            let end = options.to.map { MemoEdit.frame($0, of: memo) } ?? memo.frames
            if options.removeSilences {
                let removal = SilenceRemoval(
                    threshold: options.silenceBelow ?? SilenceRemoval.defaultThreshold,
                    keptPause: options.keepPause.map(MemoEdit.seconds) ?? SilenceRemoval.defaultKeptPause)
                return try library.removeSilences(id: memo.id, removal, within: start..<max(start, end), at: Date())
            }
            // The parser has --to after --from; a --from past the end (and no --to) is the
            // library's to word, with the memo's length.
            guard start < end || options.to == nil else {
                throw .invalidEdit(memo: memo, reason: "nothing would be kept: --from must come before --to")
            }
            return try library.trim(id: memo.id, keeping: start..<max(start, end), at: Date())
        }
        MemoEdit.report(result, json: options.json, context: context)
        return .success
    }
}
