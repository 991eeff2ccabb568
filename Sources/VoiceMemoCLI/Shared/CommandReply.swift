import Metering
import MemoLibrary
import Vocabulary

/// What a library command prints when it succeeds, worded in this one place.
///
/// On a terminal a person reads words ("Deleted “Standup” (id 27); …"); piped, a script reads
/// what it can use as is: the id, or the path written (the output of these commands before
/// they had words, so scripts keep working).
struct CommandReply {
    /// Words for a person.
    let words: String
    /// What a script reads: an id or a path per line.
    let bare: [String]

    static func renamed(_ memo: Memo) -> CommandReply {
        CommandReply(words: "Renamed memo \(memo.id) to \(quoted(memo.title))", bare: [String(memo.id)])
    }

    static func tagged(_ memo: Memo) -> CommandReply {
        let tags = memo.tags.isEmpty ? "no tags" : "tags " + memo.tags.map { TerminalText.safe($0) }.joined(separator: " ")
        return CommandReply(words: "Memo \(memo.id) \(quoted(memo.title)) has \(tags)", bare: [String(memo.id)])
    }

    static func starred(_ memo: Memo) -> CommandReply {
        CommandReply(
            words: (memo.isStarred ? "Starred" : "Unstarred") + " \(quoted(memo.title)) (id \(memo.id))", bare: [String(memo.id)])
    }

    static func deleted(_ memo: Memo) -> CommandReply {
        CommandReply(
            words: "Deleted \(quoted(memo.title)) (id \(memo.id)); `voicememo restore \(memo.id)` brings it back "
                + "(it stays in Recently Deleted for \(Int(MemoLibrary.recentlyDeletedLifetime / 86_400)) days)",
            bare: [String(memo.id)])
    }

    static func restored(_ memo: Memo) -> CommandReply {
        CommandReply(words: "Restored \(quoted(memo.title)) (id \(memo.id))", bare: [String(memo.id)])
    }

    static func purged(_ memo: Memo) -> CommandReply {
        CommandReply(words: "Purged \(quoted(memo.title)) (id \(memo.id)) for good", bare: [String(memo.id)])
    }

    static func purgedAll(_ ids: [Int64]) -> CommandReply {
        CommandReply(
            words: ids.isEmpty
                ? "Recently Deleted is empty: nothing was purged"
                : "Purged \(ids.count) memo\(ids.count == 1 ? "" : "s") for good",
            bare: ids.map { String($0) })
    }

    static func exported(_ memo: Memo, to paths: [String], normalised: LoudnessExportResult? = nil) -> CommandReply {
        let places = paths.map { TerminalText.safe($0) }.joined(separator: " and ")
        let how = normalised.map { "; " + normalisation($0) } ?? ""
        return CommandReply(words: "Exported \(quoted(memo.title)) (id \(memo.id)) to \(places)\(how)", bare: paths)
    }

    /// "normalised to -16.0 LUFS (it was -31.2), true peak -1.3 dBTP: gain +15.2 dB, limited by up to 2.1 dB".
    static func normalisation(_ result: LoudnessExportResult) -> String {
        let limited = result.limiting < 0.05 ? "the limiter never acted" : String(format: "limited by up to %.1f dB", result.limiting)
        return String(
            format: "normalised to %.1f LUFS (it was %.1f), true peak %.1f dBTP: gain %+.1f dB, ",
            result.loudness, result.originalLoudness, result.truePeak, result.gain) + limited
    }

    static func marked(_ memo: Memo, at seconds: Double, label: String) -> CommandReply {
        let named = label.isEmpty ? "" : " " + quoted(label)
        return CommandReply(
            words: "Marker\(named) at \(DisplayFormat.seconds(seconds)) in \(quoted(memo.title)) (id \(memo.id))",
            bare: [String(memo.id)])
    }

    /// `trim` and `split`: the memos made (the original's note is on standard error).
    static func edited(_ memos: [Memo], from original: Memo) -> CommandReply {
        let made = memos.map { "\(quoted($0.title)) (id \($0.id), \(DisplayFormat.seconds($0.duration)))" }
        return CommandReply(
            words: "Made " + made.joined(separator: " and ") + " from \(quoted(original.title)) (id \(original.id))",
            bare: memos.map { String($0.id) })
    }

    private static func quoted(_ text: String) -> String {
        "“" + TerminalText.safe(text) + "”"
    }
}

extension Console {
    /// Prints `reply`: its words on a terminal, else its bare lines.
    func reply(_ reply: CommandReply) {
        if isOutputTerminal {
            printLine(reply.words)
        } else {
            for line in reply.bare { printLine(line) }
        }
    }
}
