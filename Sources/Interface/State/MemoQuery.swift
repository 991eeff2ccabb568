import Vocabulary

/// The `/` filter read into its parts: plain words, and `key:value` terms that all must hold.
///
/// - `tag:work`: has the tag (tags are lower case: `tag:Work` is the same);
/// - `is:starred`: is a favourite;
/// - `said:budget`: the transcript holds the word (spoken words only, not the title);
/// - `before:2026-12-01`: recorded before that day (local time); `after:2026-11-01`: on that
///   day or later;
/// - `longer:5m`, `shorter:90s`: longer or shorter than a length (`90`, `90s`, `5m`, `1h30m`).
///
/// Plain words match a title that holds them, or spoken words (`TitleFilter`, the transcript
/// search); with `said:` they must be spoken too. A word
/// with a colon whose key is none of the above (`re:budget`) is a plain word. A term whose value
/// is wrong (`before:2026-13-45`, `longer:soon`, `tag:`) is a `problem`: the filter then lists
/// nothing and says why, rather than matching nothing in silence.
public struct MemoQuery: Sendable, Equatable {
    /// The plain words, in order.
    public var words: [String] = []
    /// `tag:` terms, lower case.
    public var tags: [String] = []
    /// `is:starred`.
    public var starredOnly = false
    /// `said:` words.
    public var said: [String] = []
    /// `before:`: the day (days since 1970) a memo must be recorded before.
    public var beforeDay: Int?
    /// `after:`: the first day (days since 1970) a memo may be recorded on.
    public var fromDay: Int?
    /// `longer:`, in seconds.
    public var longerThan: Double?
    /// `shorter:`, in seconds.
    public var shorterThan: Double?
    /// Why a term is wrong, in words for the status line; `nil` when every term is right.
    public var problem: String?

    /// Reads `text` (the filter as typed).
    public init(_ text: String) {
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) {
            guard problem == nil else { return }
            read(word)
        }
    }

    /// Whether the filter has nothing in it.
    public var isEmpty: Bool {
        words.isEmpty && tags.isEmpty && !starredOnly && said.isEmpty && beforeDay == nil && fromDay == nil
            && longerThan == nil && shorterThan == nil && problem == nil
    }

    /// The plain words as one text (what a title must hold).
    public var plainText: String { words.joined(separator: " ") }

    /// What the transcripts are searched for: the `said:` words and, with them, the plain
    /// words; else the plain words (empty: no search).
    public var spokenText: String {
        (said + words).joined(separator: " ")
    }

    /// Whether `memo` passes every term but the words (`tag:`, `is:`, `before:`, `after:`,
    /// `longer:`, `shorter:`); `utcOffset` makes its date local.
    public func matchesTerms(_ memo: MemoRow, utcOffset: Int) -> Bool {
        guard problem == nil else { return false }
        if starredOnly, !memo.isStarred { return false }
        if !tags.allSatisfy(memo.tags.contains) { return false }
        if beforeDay != nil || fromDay != nil {
            let day = CivilTime(seconds: memo.created, utcOffset: utcOffset).dayNumber
            if let beforeDay, day >= beforeDay { return false }
            if let fromDay, day < fromDay { return false }
        }
        if let longerThan, memo.duration <= longerThan { return false }
        if let shorterThan, memo.duration >= shorterThan { return false }
        return true
    }

    /// Whether `memo` passes the words: with `said:`, its transcript matched (`spokenMatch`);
    /// else plain words in its title or its transcript; no words: every memo.
    public func matchesWords(_ memo: MemoRow, spokenMatch: Bool) -> Bool {
        if !said.isEmpty { return spokenMatch }
        return words.isEmpty || TitleFilter.matches(title: memo.title, query: plainText) || spokenMatch
    }

    // MARK: Reading

    private mutating func read(_ word: String) {
        guard let colon = word.firstIndex(of: ":") else {
            words.append(word)
            return
        }
        let key = word[..<colon].lowercased()
        let value = String(word[word.index(after: colon)...])
        switch key {
        case "tag":
            do {
                let tag = try MemoTag.accepted(value)
                if !tags.contains(tag) { tags.append(tag) }
            } catch {
                problem = "tag:\(value): \(error.description)"
            }
        case "is":
            if value.lowercased() == "starred" {
                starredOnly = true
            } else {
                problem = "is:\(value): only is:starred is known"
            }
        case "said":
            if value.isEmpty { problem = "said: needs a word, e.g. said:budget" } else { said.append(value) }
        case "before", "after":
            guard let day = Self.day(value) else {
                problem = "\(key):\(value) is not a date: write YYYY-MM-DD, e.g. \(key):2026-12-01"
                return
            }
            if key == "before" { beforeDay = day } else { fromDay = day }
        case "longer", "shorter":
            guard let seconds = Self.seconds(value) else {
                problem = "\(key):\(value) is not a length: write e.g. \(key):90s, \(key):5m or \(key):1h30m"
                return
            }
            if key == "longer" { longerThan = seconds } else { shorterThan = seconds }
        default:
            words.append(word)
        }
    }

    /// `2026-12-01` as days since 1970; `nil` for anything else or a day the month lacks.
    static func day(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, year: year)
        else { return nil }
        return CivilTime.dayNumber(year: year, month: month, day: day)
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `90`, `90s`, `5m`, `1h30m`, `1.5h` in seconds; `nil` for anything else.
    static func seconds(_ text: String) -> Double? {
        guard !text.isEmpty else { return nil }
        if let plain = Double(text), plain.isFinite, plain >= 0, text.allSatisfy({ $0.isASCIIDigit || $0 == "." }) {
            return plain
        }
        var total = 0.0
        var number = ""
        var lastUnit = Double.infinity
        for character in text.lowercased() {
            if character.isASCIIDigit || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            // Each unit once, largest first: `1h30m`, not `30m1h` or `5m5m`.
            guard let value = Double(number), unit < lastUnit else { return nil }
            total += value * unit
            lastUnit = unit
            number = ""
        }
        return number.isEmpty ? total : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
