import Vocabulary

/// The status line (messages and prompts) and the footer (keys). On short terminals
/// they share one line: a prompt or message wins over the keys.
enum BottomLinesView {
    static func render(_ state: AppState, layout: Layout, on screen: inout Screen) {
        let theme = Theme(state)
        if let status = layout.status {
            renderStatus(state, in: status, theme: theme, on: &screen)
            if let footer = layout.footer { renderFooter(state, in: footer, theme: theme, on: &screen) }
        } else if let footer = layout.footer {
            if hasStatus(state) {
                renderStatus(state, in: footer, theme: theme, on: &screen)
            } else {
                renderFooter(state, in: footer, theme: theme, on: &screen)
            }
        }
    }

    private static func hasStatus(_ state: AppState) -> Bool {
        switch state.mode {
        case .filtering, .renaming, .exporting, .openingStream, .labelingMarker, .tagging, .confirmingPurge, .confirmingQuit, .confirmingEdit: true
        default: state.statusLine != nil
        }
    }

    private static func renderStatus(_ state: AppState, in row: Rect, theme: Theme, on screen: inout Screen) {
        switch state.mode {
        case .filtering(let field):
            renderPrompt("Find: ", field, in: row, theme: theme, on: &screen)
        case .renaming(_, let field):
            // The save goes on under the prompt: its line above it, where there are two rows.
            if row.height >= 2, state.showsWorkAbovePrompt, let above = state.promptProblem ?? state.workStatusLine?.text {
                let style = state.promptProblem == nil ? Style.plain : theme.error
                screen.put(" " + TextFitting.truncated(above, toWidth: max(row.width - 1, 0)), x: row.x, y: row.y, style: style, maxWidth: row.width)
                let prompt = Rect(x: row.x, y: row.y + 1, width: row.width, height: 1)
                renderPrompt("Title: ", field, in: prompt, theme: theme, on: &screen)
            } else {
                renderPrompt("Title: ", field, in: row, theme: theme, on: &screen)
            }
        case .exporting(_, let field), .openingStream(let field), .labelingMarker(_, _, let field), .tagging(_, let field):
            let label =
                switch state.mode {
                case .tagging: "Tags: "
                case .openingStream: "Stream URL: "
                case .labelingMarker(_, let time, _): MarkerKeys.promptLabel(time: time, state)
                default: ExportKeys.label(state)
                }
            if let problem = state.promptProblem {
                // One row: the problem, until the next key brings the prompt back.
                screen.put(" " + TextFitting.truncated(problem, toWidth: max(row.width - 1, 0)), x: row.x, y: row.y, style: theme.error, maxWidth: row.width)
                guard row.height >= 2 else { return }
                renderPrompt(label, field, in: Rect(x: row.x, y: row.y + 1, width: row.width, height: 1), theme: theme, on: &screen)
            } else {
                renderPrompt(label, field, in: row, theme: theme, on: &screen)
            }
        case .confirmingPurge, .confirmingEdit, .confirmingQuit:
            guard let confirmation = state.confirmation(width: row.width - 1) else { return }
            for (offset, line) in confirmation.lines(width: row.width - 1, rows: row.height).enumerated() {
                screen.put(" " + line, x: row.x, y: row.y + offset, style: .bold, maxWidth: row.width)
            }
        default:
            guard let status = state.statusLine else {
                // The background job's progress, only where a status row of its own is free.
                if let line = state.transcriptionLine {
                    screen.put(" " + TextFitting.truncated(line, toWidth: max(row.width - 1, 0)), x: row.x, y: row.y, style: theme.dim, maxWidth: row.width)
                }
                return
            }
            let style =
                switch status.kind {
                case .info: Style.plain
                case .warning: theme.warning
                case .error: theme.error
                case .alert: state.alert.flashes(at: state.now) ? theme.alertFlash : theme.error
                }
            var lines = TextFitting.wrapped(status.text, toWidth: max(row.width - 1, 0))
            if lines.count > row.height {
                lines = Array(lines.prefix(row.height))
                let last = lines.count - 1
                if last >= 0 { lines[last] = TextFitting.truncated(lines[last] + " …", toWidth: row.width - 1) }
            }
            for (offset, line) in lines.enumerated() {
                screen.put(" " + line, x: row.x, y: row.y + offset, style: style, maxWidth: row.width)
            }
            // The job's progress goes on under the message, where a row is left for it.
            if lines.count < row.height, let line = state.transcriptionBesideStatus {
                screen.put(" " + TextFitting.truncated(line, toWidth: max(row.width - 1, 0)), x: row.x, y: row.y + lines.count, style: theme.dim, maxWidth: row.width)
            }
        }
    }

    /// "Title: text" with the cursor shown as a reverse-video cell (the whole text, while it
    /// is selected); scrolled so the cursor stays visible.
    private static func renderPrompt(_ label: String, _ field: TextField, in row: Rect, theme: Theme, on screen: inout Screen) {
        var x = row.x + screen.put(" " + label, x: row.x, y: row.y, style: .bold, maxWidth: row.width)
        let room = row.x + row.width - x - 1
        guard room > 0 else { return }
        var start = 0
        // Scrolled to the cursor; while a part is selected, to the end, so that the selection
        // and what follows it (the export path's extension) show.
        let focus = field.isSelected ? field.characters.count : field.cursor
        while DisplayWidth.of(String(field.characters[start..<focus])) > room { start += 1 }
        for index in start..<field.characters.count {
            let character = field.characters[index]
            let width = DisplayWidth.of(String(TerminalText.safe(String(character))))
            if x + width > row.x + row.width { break }
            let selected = field.selection.map { $0.contains(index) } ?? (index == field.cursor)
            x += screen.put(String(character), x: x, y: row.y, style: selected ? theme.selection : .plain)
        }
        if field.cursor == field.characters.count, !field.isSelected { screen.put(" ", x: x, y: row.y, style: theme.selection) }
    }

    private static func renderFooter(_ state: AppState, in row: Rect, theme: Theme, on screen: inout Screen) {
        var x = row.x + 1
        let end = row.x + row.width
        var entries = KeyHelp.footer(for: state)
        // `? help` is never crowded out: the way to every other key.
        let pinned = entries.filter { $0.0 == "?" }
        entries.removeAll { $0.0 == "?" }
        func width(_ entry: (String, String)) -> Int { DisplayWidth.of(entry.0) + 1 + DisplayWidth.of(entry.1) }
        let reserved = pinned.reduce(0) { $0 + width($1) + 2 }
        for entry in entries {
            if x + width(entry) + reserved > end { break }
            x += put(entry, at: x)
        }
        for entry in pinned where x + width(entry) <= end {
            x += put(entry, at: x)
        }
        func put(_ entry: (String, String), at x: Int) -> Int {
            screen.put(entry.0, x: x, y: row.y, style: theme.key)
                + screen.put(" " + entry.1 + "  ", x: x + DisplayWidth.of(entry.0), y: row.y, style: .plain, maxWidth: end - x - DisplayWidth.of(entry.0))
        }
    }
}
