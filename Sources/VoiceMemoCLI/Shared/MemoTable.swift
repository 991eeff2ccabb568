import Foundation
import Vocabulary
import MemoLibrary
import Metering

/// The human `list`: a table that fits `width` columns, titles made safe for the terminal.
struct MemoTable {
    var memos: [Memo]
    var width: Int
    var deleted: Bool
    var timeZone: TimeZone
    /// For Recently Deleted's "Purged in" column (beside "Why": `DeletionReason.label`).
    var now = Date().timeIntervalSince1970

    /// A fixed-width column: its heading and how a memo fills it.
    private struct Column {
        var heading: String
        var width: Int
        var rightAligned = false
        var value: (Memo) -> String
    }

    var rendered: String {
        if memos.isEmpty {
            return deleted
                ? "Recently Deleted is empty.\n"
                : "No memos yet. Record one with: voicememo record (or run voicememo for the full-screen app)\n"
        }
        let idWidth = max(2, memos.map { String($0.id).count }.max() ?? 2)
        var fixed: [Column] = [
            Column(heading: "ID", width: idWidth, rightAligned: true) { String($0.id) },
        ]
        var trailing: [Column] = [
            Column(heading: "Date", width: 10) { dateText($0.created, time: false) },
            Column(heading: "Time", width: 5) { dateText($0.created, time: true) },
            Column(heading: "Length", width: 8, rightAligned: true) { DisplayFormat.elapsedTime(seconds: $0.duration) },
            Column(heading: "Size", width: 8, rightAligned: true) { Self.sizeText($0.size) },
        ]
        if deleted {
            trailing.insert(Column(heading: "Purged in", width: 12) { [now] in $0.purgeText(now: now) }, at: 0)
            let reasonWidth = max(3, memos.map { TerminalWidth.displayWidth(of: ($0.deletionReason ?? .deleted).label) }.max() ?? 0)
            trailing.insert(Column(heading: "Why", width: reasonWidth) { ($0.deletionReason ?? .deleted).label }, at: 0)
        }
        let optional: [Column] = [
            Column(heading: "State", width: 9) { stateText($0) },
            Column(heading: "Format", width: 6) { $0.format.rawValue },
        ]
        // Optional columns only when the title keeps at least 20 columns.
        for column in optional where used(fixed + trailing + [column]) + 20 <= width {
            trailing.append(column)
        }
        // Too narrow: drop columns from the right until the title has room (never below nothing).
        while used(fixed + trailing) + 8 > width, !trailing.isEmpty {
            trailing.removeLast()
        }
        if used(fixed) + 8 > width { fixed = [] }
        let titleWidth = max(1, width - used(fixed + trailing) - 1)
        let titleColumn = Column(heading: "Title", width: titleWidth) { Self.titleText($0) }
        let columns = fixed + [titleColumn] + trailing
        var lines = [line(columns.map { ($0, $0.heading) })]
        for memo in memos {
            lines.append(line(columns.map { ($0, $0.value(memo)) }))
        }
        return lines.map { TerminalWidth.truncated($0, to: width) + "\n" }.joined()
    }

    /// The title, after a ★ for a starred memo, followed by its tags: `★ Standup  #work #draft`.
    static func titleText(_ memo: Memo) -> String {
        let tags = memo.tags.map { "#" + TerminalText.safe($0) }.joined(separator: " ")
        return (memo.isStarred ? "★ " : "") + memo.displayTitle + (tags.isEmpty ? "" : "  " + tags)
    }

    private func used(_ columns: [Column]) -> Int {
        columns.reduce(0) { $0 + $1.width + 2 }
    }

    private func line(_ cells: [(Column, String)]) -> String {
        var text = ""
        for (index, (column, value)) in cells.enumerated() {
            if index > 0 { text += "  " }
            if column.rightAligned {
                let cut = TerminalWidth.truncated(value, to: column.width)
                text += String(repeating: " ", count: max(0, column.width - TerminalWidth.displayWidth(of: cut))) + cut
            } else {
                text += TerminalWidth.padded(value, to: column.width)
            }
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    private func dateText(_ date: Date, time: Bool) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : String(value ?? 0) }
        return time ? "\(two(parts.hour)):\(two(parts.minute))" : "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private func stateText(_ memo: Memo) -> String {
        memo.state == .complete ? "" : memo.state.rawValue
    }

    /// `310 kB`, `1.2 MB` (decimal units).
    static func sizeText(_ bytes: Int64) -> String {
        let value = Double(bytes)
        switch value {
        case ..<1000: return "\(bytes) B"
        case ..<1_000_000: return "\(Int((value / 1000).rounded())) kB"
        case ..<1_000_000_000: return String(format: "%.1f MB", value / 1_000_000)
        default: return String(format: "%.1f GB", value / 1_000_000_000)
        }
    }
}
