import Vocabulary
import Metering

/// Recently Deleted: each memo's title, why it is here, when it was deleted, its length, size
/// and days left, the columns after the title kept in that order of importance as the width
/// allows.
enum RecentlyDeletedView {
    /// The fewest columns the title keeps before a column beside it is dropped: 16, or a third
    /// of a narrow screen (so at 40 the reason still shows).
    static func minimumTitleWidth(_ width: Int) -> Int { min(16, width / 3) }

    static func render(_ state: AppState, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        screen.put(" Recently Deleted (purged after 30 days)", x: area.x, y: area.y, style: theme.columnHeader, maxWidth: area.width)
        guard !state.deletedMemos.isEmpty else {
            screen.put(" Nothing here. Deleted memos wait here for 30 days.", x: area.x, y: area.y + 1, style: theme.dim, maxWidth: area.width)
            return
        }
        let rows = area.height - 1
        let first = rows > 0 ? max(0, min(state.deletedSelection - rows + 1, state.deletedMemos.count - rows)) : 0
        let columns = self.columns(for: area.width, state: state)
        let titleWidth = max(area.width - 2 - columns.reduce(0) { $0 + 2 + $1.width }, 1)
        for (offset, index) in (first..<min(first + max(rows, 0), state.deletedMemos.count)).enumerated() {
            let memo = state.deletedMemos[index]
            let selected = index == state.deletedSelection
            var line = (selected ? "▶ " : "  ") + TextFitting.padded(memo.title, toWidth: titleWidth)
            for column in columns {
                let text = column.text(memo)
                line += "  " + (column.alignRight ? TextFitting.rightAligned(text, toWidth: column.width) : TextFitting.padded(text, toWidth: column.width))
            }
            screen.put(TextFitting.padded(line, toWidth: area.width), x: area.x, y: area.y + 1 + offset,
                       style: selected ? theme.selection : .plain, maxWidth: area.width)
        }
    }

    /// A column beside the title: as wide as its widest text in the whole list (so scrolling
    /// does not move it).
    struct Column {
        var width: Int
        var alignRight: Bool
        var text: (MemoRow) -> String
    }

    /// The columns that fit beside a title of at least `minimumTitleWidth(width)`, in order of
    /// importance: why, when, length, size, days left; a column is shown only with those before it.
    static func columns(for width: Int, state: AppState) -> [Column] {
        let now = state.now
        let candidates: [(alignRight: Bool, text: (MemoRow) -> String)] = [
            (false, { ($0.deletionReason ?? .deleted).label }),
            (false, { deletedWhen($0, state: state) }),
            (false, { DisplayFormat.elapsedTime(seconds: $0.duration) }),
            (true, { DisplayFormat.byteCount($0.size) }),
            (false, { $0.purgeText(now: now) }),
        ]
        var columns: [Column] = []
        var used = 2 + minimumTitleWidth(width)
        for candidate in candidates {
            let columnWidth = state.deletedMemos.map { DisplayWidth.of(candidate.text($0)) }.max() ?? 0
            guard used + 2 + columnWidth <= width else { break }
            used += 2 + columnWidth
            columns.append(Column(width: columnWidth, alignRight: candidate.alignRight, text: candidate.text))
        }
        return columns
    }

    /// When the memo was deleted, as the memo table says when one was recorded: "14:03" today,
    /// "Yesterday 14:03", "2026-11-29 14:03"; "" for a memo with no time.
    static func deletedWhen(_ memo: MemoRow, state: AppState) -> String {
        guard let deleted = memo.deletedAt else { return "" }
        let day = CivilTime(seconds: deleted, utcOffset: state.utcOffset)
        guard day.dayNumber != CivilTime(seconds: state.now, utcOffset: state.utcOffset).dayNumber else { return day.timeText }
        return MemoTableView.humanDate(deleted, state: state) + " " + day.timeText
    }
}
