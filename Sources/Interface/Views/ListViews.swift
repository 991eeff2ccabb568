import Metering

/// The views that take the table's place: help, the input picker (Recently Deleted is
/// `RecentlyDeletedView`).
enum ListViews {
    /// Every key of the screen help was opened on, and what it does.
    static func renderHelp(_ state: AppState, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        screen.fill(area)
        let help = HelpLayout(state)
        var title = " " + state.helpScreen.helpTitle
        if help.scrolls {
            let first = help.scroll + 1
            let last = min(help.scroll + help.visibleRows, help.rowCount)
            title += "  \(first)–\(last) of \(help.rowCount) (↑↓ scroll)"
        }
        screen.put(TextFitting.truncated(title, toWidth: area.width), x: area.x, y: area.y, style: theme.columnHeader, maxWidth: area.width)
        for (column, lines) in help.lines.enumerated() {
            let x = area.x + 2 + column * help.columnWidth
            let right = column == help.columns - 1 ? area.x + area.width : x + help.columnWidth - 2
            for row in 0..<help.visibleRows {
                guard help.scroll + row < lines.count else { break }
                let y = area.y + 1 + row
                switch lines[help.scroll + row] {
                case .heading(let heading):
                    screen.put(TextFitting.truncated(heading, toWidth: max(right - x + 1, 0)), x: max(x - 1, area.x), y: y, style: theme.columnHeader, maxWidth: max(right - x + 1, 0))
                case .entry(let keys, let text):
                    screen.put(TextFitting.padded(keys, toWidth: help.keyWidth), x: x, y: y, style: theme.key, maxWidth: max(right - x, 0))
                    screen.put(TextFitting.truncated(text, toWidth: max(right - x - help.keyWidth - 2, 0)), x: x + help.keyWidth + 2, y: y)
                }
            }
        }
    }

    /// A picker's rows, each a name and its description: the inputs (ALSA capture devices and
    /// the test tones) or the playback devices; `nil` while they are being listed.
    static func renderPicker(
        _ state: AppState, rows choices: [(name: String, description: String)]?, title: String = "Choose an input", looking: String = "Looking for inputs…",
        hidden: [String] = [], in area: Rect, on screen: inout Screen
    ) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        screen.put(" " + title, x: area.x, y: area.y, style: theme.columnHeader, maxWidth: area.width)
        if choices != nil, let note = hiddenNote(hidden, width: area.width - DisplayWidth.of(title) - 4) {
            screen.put(note, x: area.x + DisplayWidth.of(title) + 4, y: area.y, style: theme.dim, maxWidth: area.width - DisplayWidth.of(title) - 4)
        }
        guard let choices else {
            screen.put(" " + looking, x: area.x, y: area.y + 1, style: theme.dim, maxWidth: area.width)
            return
        }
        let rows = area.height - 1
        let first = rows > 0 ? max(0, min(state.pickerSelection - rows + 1, choices.count - rows)) : 0
        let sourceWidth = min(max(choices.map { DisplayWidth.of($0.name) }.max() ?? 0, 8), max(area.width / 2, 8))
        for (offset, index) in (first..<min(first + max(rows, 0), choices.count)).enumerated() {
            let choice = choices[index]
            let selected = index == state.pickerSelection
            let line = (selected ? "▶ " : "  ") + TextFitting.padded(choice.name, toWidth: sourceWidth) + "  " + choice.description
            screen.put(TextFitting.padded(line, toWidth: area.width), x: area.x, y: area.y + 1 + offset,
                       style: selected ? theme.selection : .plain, maxWidth: area.width)
        }
    }

    /// "not listed: null, lavrate, samplerate (converters and mixers)" in `width` columns, the
    /// names dropped first and counted ("not listed: 8 converters and mixers"); nil when
    /// nothing was left out or not even the count fits.
    static func hiddenNote(_ hidden: [String], width: Int) -> String? {
        guard !hidden.isEmpty else { return nil }
        let named = "not listed: " + hidden.joined(separator: ", ") + " (converters and mixers)"
        if DisplayWidth.of(named) <= width { return named }
        let counted = "not listed: \(hidden.count) converters and mixers"
        return DisplayWidth.of(counted) <= width ? counted : nil
    }
}
