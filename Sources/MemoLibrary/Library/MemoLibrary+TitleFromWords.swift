import Foundation
import Vocabulary

/// A memo titled from its first words (`auto_title`): its title before and after.
public struct TitleFromWords: Sendable, Hashable {
    public var memoID: Int64
    public var previousTitle: String
    public var title: String

    public init(memoID: Int64, previousTitle: String, title: String) {
        self.memoID = memoID
        self.previousTitle = previousTitle
        self.title = title
    }
}

extension Memo {
    /// Whether the memo still has the title it was given when made (`Memo 2026-12-06 17:50:31`,
    /// `MemoTitle.defaultTitle`): "Memo", a space and a date and time within a day of its
    /// creation (the title is in the local time of the recording, which may not be today's
    /// zone). A title a person typed has another form; one renamed to exactly its own default
    /// text counts as the default. A voice take titled with `--title`'s prefix is not the default.
    public var hasDefaultTitle: Bool {
        let prefix = "Memo "
        guard title.hasPrefix(prefix) else { return false }
        let stamp = Array(title.dropFirst(prefix.count))
        guard stamp.count == 19 else { return false }
        let separators: [Int: Character] = [4: "-", 7: "-", 10: " ", 13: ":", 16: ":"]
        for (index, character) in stamp.enumerated() {
            if let separator = separators[index] {
                guard character == separator else { return false }
            } else {
                guard character.isASCII, character.isNumber else { return false }
            }
        }
        func number(_ range: Range<Int>) -> Int { Int(String(stamp[range])) ?? -1 }
        var components = DateComponents()
        (components.year, components.month, components.day) = (number(0..<4), number(5..<7), number(8..<10))
        (components.hour, components.minute, components.second) = (number(11..<13), number(14..<16), number(17..<19))
        guard let named = Calendar.gregorian(in: TimeZone(identifier: "UTC") ?? .current).date(from: components) else { return false }
        // Local time is UTC−12 to UTC+14: within 26 hours of the creation instant, with slack.
        return abs(named.timeIntervalSince(created)) <= 27 * 3600
    }
}

extension MemoLibrary {
    /// Gives memo `id` a title from the first words of `transcript` (`MemoTitle.fromWords`) when
    /// it still has its default title (`Memo.hasDefaultTitle`), as `rename` does: in the index and
    /// in the file's tags, so a rebuilt index keeps it. Only if the title is still the one read
    /// here (checked under the write lock, as an undo is): a title given meanwhile, in the app or
    /// by another process, is never replaced.
    ///
    /// - Returns: the change, or `nil` when nothing changed (a title that is not the default,
    ///   a transcript with no words but fillers, a title renamed meanwhile).
    /// - Throws: what `rename` throws, but `.titleChangedElsewhere`.
    public func titleFromWords(of transcript: Transcript, forMemo id: Int64) throws(MemoLibraryError) -> TitleFromWords? {
        let memo = try existing(id)
        guard memo.hasDefaultTitle, let title = MemoTitle.fromWords(transcript.words.map(\.word)), title != memo.title else {
            return nil
        }
        do {
            try rename(id: id, to: title, ifTitleIs: memo.title)
        } catch .titleChangedElsewhere {
            return nil
        }
        return TitleFromWords(memoID: id, previousTitle: memo.title, title: title)
    }
}
