import Foundation
import MemoLibrary
import Vocabulary
import Metering

/// What `trim`, `split` and `enhance` share: frames from times, and the report of an edit (the new
/// ids, or the new memos as JSON, and on standard error where the original went and whether the
/// audio was encoded again).
enum MemoEdit {
    /// The frame nearest to `time` in `memo` (its own rate).
    static func frame(_ time: Duration, of memo: Memo) -> Int64 {
        Int64((seconds(time) * Double(memo.sampleRate)).rounded())
    }

    static func seconds(_ time: Duration) -> Double {
        time.seconds
    }

    /// "memo 1 is now memo 7", "memo 7 is now memos 8 and 9": an edit makes new memos, with
    /// new ids, so a script holding the old id learns the new ones.
    static func idChange(from original: Memo, to memos: [Memo]) -> String {
        let ids = memos.map { String($0.id) }
        let made = ids.count == 1 ? "memo \(ids[0])" : "memos " + ids.joined(separator: " and ")
        return "memo \(original.id) is now \(made)"
    }

    static func report(_ result: EditResult, json: Bool, context: CommandContext) {
        if result.reencoded {
            context.console.printErrorMessage(
                "note: \(result.original.encoding.displayName) is lossy: the kept audio was decoded and encoded again")
        }
        context.console.printErrorMessage("note: " + idChange(from: result.original, to: result.memos))
        context.console.printErrorMessage(
            "note: the original, memo \(result.original.id), is in Recently Deleted ('voicememo restore \(result.original.id)' brings it back)")
        if json {
            context.console.printJSON(Memo.jsonText(of: result.memos, replacing: result.original.id))
        } else {
            context.console.reply(.edited(result.memos, from: result.original))
        }
    }
}
