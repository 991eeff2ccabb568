import Platform
import Foundation
import MemoLibrary
import Vocabulary

/// `mark`: a marker in a memo, kept in the index and written into the file where it can be.
///
/// MEMO is an id or a unique title prefix; an ambiguous prefix exits 2 listing the candidates,
/// a memo that is not there exits 1.
enum MarkRunner {
    static func run(_ options: MarkOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let seconds = Double(options.time.components.seconds) + Double(options.time.components.attoseconds) / 1e18
        let (memo, outcome) = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: options.memo)
            return (memo, try library.addMarker(Marker(time: seconds, label: options.label ?? ""), toMemo: memo.id))
        }
        if case .failed(let reason) = outcome {
            context.console.printErrorMessage("the marker is kept in the index, but not written into the memo's file: \(reason)")
        } else if let shared = library.sharedFileReason(memo) {
            context.console.printErrorMessage("note: the marker is kept in the index only: \(shared)")
        }
        context.console.reply(.marked(memo, at: seconds, label: options.label ?? ""))
        return .success
    }
}
