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
        guard let memoName = options.memo, let time = options.time else {
            return try markTheRecording(label: options.label ?? "", context: context)
        }
        let library = try LibraryAccess.open(context)
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        let (memo, outcome) = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: memoName)
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

    /// `mark [--label TEXT]`: the control socket's `mark`, checked here first so the rule is
    /// named before anything is sent.
    private static func markTheRecording(label: String, context: CommandContext) throws -> ExitCode {
        if let problem = ControlRequest.checkLabel(label) {
            throw CommandFailure(problem.message, exitCode: .usageError)
        }
        return try HotkeyNotice.reporting(context) {
            guard case .ok(let text) = try ControlConnection.require(.mark(label: label), context: context) else { return "" }
            context.console.printLine(text)
            return text
        }
    }
}
