import Vocabulary
import Metering

/// The memo table: title, date, time, length, size (and format and loudness on wide terminals),
/// newest first, the selection highlighted, scrolled to keep it visible; the header says which
/// of how many is selected (`Title  12/29`).
enum MemoTableView {
    /// A column: header text, width, and how a memo fills it.
    struct Column {
        let header: String
        let width: Int
        let alignRight: Bool
        let text: (MemoRow) -> String
        /// What it shows for the recording in progress (`AppState.liveRecordingRow`); `nil`:
        /// nothing, the live row's title runs on over it (the date of a recording in progress
        /// goes without saying, and at 80 columns its title and `[recording]` did not fit).
        var live: String? = ""
    }

    static func render(_ state: AppState, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        let memos = state.visibleMemos
        let columns = self.columns(for: area.width, state: state)
        let fixed = columns.reduce(0) { $0 + $1.width + 3 }
        let titleWidth = max(area.width - 2 - fixed - 1, 1)
        var y = area.y
        if area.height >= 2 {
            // Where the selection is, `12/29`, after the title's header (the filter's count when one is set).
            let title = (state.sortOrder == .byTitle ? "Title ▲" : "Title") + (state.filter.isEmpty ? "" : " (filter: \(state.filter))")
            let position = memos.isEmpty ? "" : "  \(min(state.selection, memos.count - 1) + 1)/\(memos.count)"
            var header = "  " + TextFitting.padded(title + position, toWidth: titleWidth)
            for column in columns {
                header += "   " + (column.alignRight
                    ? TextFitting.rightAligned(column.header, toWidth: column.width)
                    : TextFitting.padded(column.header, toWidth: column.width))
            }
            screen.put(header, x: area.x, y: y, style: theme.columnHeader, maxWidth: area.width)
            y += 1
        }
        if let live = state.liveRecordingRow, y < area.y + area.height {
            // The recording in progress, above the memos: not selectable, it is not a memo yet.
            let spanned = columns.prefix { $0.live == nil }
            let liveTitleWidth = titleWidth + spanned.reduce(0) { $0 + $1.width + 3 }
            var line = " ●" + titleText(live.title, tag: live.tag, width: liveTitleWidth)
            for column in columns.dropFirst(spanned.count) {
                let text = column.live ?? ""
                line += "   " + (column.alignRight
                    ? TextFitting.rightAligned(text, toWidth: column.width)
                    : TextFitting.padded(text, toWidth: column.width))
            }
            screen.put(TextFitting.padded(line, toWidth: area.width), x: area.x, y: y, style: theme.recordingBadge, maxWidth: area.width)
            y += 1
        }
        guard !memos.isEmpty || state.liveRecordingRow != nil else {
            for (offset, line) in TextFitting.wrapped(emptyMessage(state), toWidth: area.width - 2).enumerated()
            where y + offset < area.y + area.height {
                screen.put(" " + line, x: area.x, y: y + offset, style: theme.dim, maxWidth: area.width)
            }
            return
        }
        let end = area.y + area.height
        var index = state.scrollOffset
        while y < end, index < memos.count {
            let memo = state.shownRow(memos[index])
            let selected = index == state.selection
            // ♪ marks the memo that plays (beside the selection's ▶).
            let playing = state.playback?.memoID == memo.id
            var line = (selected ? "▶" : " ") + (playing ? "♪" : " ") + titleText(memo, width: titleWidth)
            for column in columns {
                let text = column.text(memo)
                line += "   " + (column.alignRight
                    ? TextFitting.rightAligned(text, toWidth: column.width)
                    : TextFitting.padded(text, toWidth: column.width))
            }
            line = TextFitting.padded(line, toWidth: area.width)
            screen.put(line, x: area.x, y: y, style: selected ? theme.selection : .plain, maxWidth: area.width)
            y += 1
            if y < end, state.tableLines(for: memo) == 2, let match = state.transcriptMatch(for: memo.id) {
                let snippet = TextFitting.padded("    " + snippetText(match, filter: MemoQuery(state.filter).spokenText, width: area.width - 4), toWidth: area.width)
                screen.put(snippet, x: area.x, y: y, style: selected ? theme.selection : theme.dim, maxWidth: area.width)
                y += 1
            }
            index += 1
        }
    }

    /// A transcript match's line beneath its memo, `width` columns: when the word is said,
    /// then the words around it ("00:00:06  “go forward ten meters”"). Where that is too wide,
    /// the time goes first (below 36 columns), then words before the match, so the matching
    /// word stays in sight.
    static func snippetText(_ match: TranscriptMatch, filter: String, width: Int) -> String {
        var words = match.snippet.split(separator: " ").map(String.init)
        let cut = words.first == "…"
        if cut { words.removeFirst() }
        let needle = TranscriptTokens.tokens(of: filter).first ?? ""
        let hit = words.firstIndex { TranscriptTokens.tokens(of: $0).contains { $0.hasPrefix(needle) } } ?? 0
        let time = width >= 36 ? DisplayFormat.elapsedTime(seconds: match.time) + "  " : ""
        func text(from first: Int) -> String {
            time + "“" + (cut || first > 0 ? "… " : "") + words[first...].joined(separator: " ") + "”"
        }
        var first = 0
        while first < hit, DisplayWidth.of(text(from: first)) > width { first += 1 }
        return text(from: first)
    }

    /// The title, after a ★ for a favourite, with the memo's state after it when that is not
    /// simply complete (`Meeting  [damaged]`) and then its tags (`#work #draft`): the state is
    /// kept whole, the tags get what the whole title leaves (else a third of the width, cut at
    /// their end), the title is cut first.
    static func titleText(_ memo: MemoRow, width: Int) -> String {
        let state: String = switch memo.state {
        case .complete: ""
        case .recovered: "[recovered]"
        case .damaged: "[damaged]"
        case .missing: "[missing]"
        case .recording: "[recording]"
        }
        let title = (memo.isStarred ? "★ " : "") + memo.title
        let tags = memo.tags.map { "#" + TerminalText.safe($0) }.joined(separator: " ")
        // Tags only where the title keeps 12 columns beside them (and the state, if shown).
        let room = width - (state.isEmpty ? 0 : state.count + 1) - 12
        guard !tags.isEmpty, room >= 6 else { return titleText(title, tag: state, width: width) }
        // The title whole where that leaves the tags 6 columns; else the tags a third.
        let named = DisplayWidth.of(title) + (state.isEmpty ? 0 : state.count + 1)
        let left = width - named - 2
        let tagsShown = TextFitting.truncated(tags, toWidth: min(DisplayWidth.of(tags), left >= 6 ? left : min(room, max(width / 3, 6))))
        var cell = titleText(title, tag: state, width: width - DisplayWidth.of(tagsShown) - 2)
        while cell.hasSuffix(" ") { cell.removeLast() }
        return TextFitting.padded(cell + "  " + tagsShown, toWidth: width)
    }

    static func titleText(_ title: String, tag: String, width: Int) -> String {
        guard !tag.isEmpty, width >= tag.count + 4 else { return TextFitting.padded(title, toWidth: width) }
        return TextFitting.padded(TextFitting.truncated(title, toWidth: width - tag.count - 1) + " " + tag, toWidth: width)
    }

    /// The columns that fit beside a readable title.
    static func columns(for width: Int, state: AppState) -> [Column] {
        let started = state.now - state.recordedSeconds
        let date = Column(header: state.sortOrder == .newestFirst ? "Date ▼" : "Date", width: 10, alignRight: false, text: {
            humanDate($0.created, state: state)
        }, live: nil)
        let time = Column(header: "Time", width: 5, alignRight: false, text: {
            CivilTime(seconds: $0.created, utcOffset: state.utcOffset).timeText
        }, live: CivilTime(seconds: started, utcOffset: state.utcOffset).timeText)
        let length = Column(header: state.sortOrder == .longestFirst ? "Length ▼" : "Length", width: 8, alignRight: false, text: {
            DisplayFormat.elapsedTime(seconds: $0.duration)
        }, live: DisplayFormat.elapsedTime(seconds: state.recordedSeconds))
        let size = Column(header: "Size", width: 8, alignRight: true, text: { DisplayFormat.byteCount($0.size) }, live: "…")
        let format = Column(header: "Format", width: 6, alignRight: false, text: { $0.format.uppercased() }, live: state.input?.recordingFormat.uppercased() ?? "")
        let loudness = Column(header: "LUFS", width: 5, alignRight: true, text: { loudnessText($0.loudnessLUFS) }, live: "—")
        switch width {
        case 100...: return [date, time, length, size, format, loudness]
        case 64...: return [date, time, length, size]
        case 44...: return [length, size]
        case 26...: return [length]
        default: return []
        }
    }

    /// Integrated loudness with one decimal ("-23.0"); "—" when unknown (not measured yet, or
    /// silent: below the −70 LUFS gate).
    static func loudnessText(_ lufs: Double?) -> String {
        guard let lufs, lufs.isFinite else { return "—" }
        return DisplayFormat.decibels(Float(lufs), includingUnit: false)
    }

    /// "Today", "Yesterday", else "2026-11-29".
    static func humanDate(_ seconds: Double, state: AppState) -> String {
        let day = CivilTime(seconds: seconds, utcOffset: state.utcOffset)
        let today = CivilTime(seconds: state.now, utcOffset: state.utcOffset).dayNumber
        switch today - day.dayNumber {
        case 0: return "Today"
        case 1: return "Yesterday"
        default: return day.dateText
        }
    }

    static func emptyMessage(_ state: AppState) -> String {
        if state.isLibraryLoading { return "Loading the library…" }
        if !state.filter.isEmpty {
            let query = MemoQuery(state.filter)
            if let problem = query.problem { return "Nothing is listed: \(problem). Esc clears the filter." }
            if query.words.joined(separator: " ") != state.filter { return "No memo matches “\(state.filter)”. Esc clears the filter." }
            return "No title or transcript holds “\(state.filter)”. Esc clears the filter."
        }
        // Memos deleted (or an undo to make): the keys that bring them back come first.
        var ways: [String] = []
        if let last = state.undoStack.last {
            if case .deleted = last { ways.append("u to undo the delete") } else { ways.append("u to undo") }
        }
        if !state.deletedMemos.isEmpty {
            let count = state.deletedMemos.count
            ways.append(ways.isEmpty ? "t for Recently Deleted (\(count) memo\(count == 1 ? "" : "s") there)" : "t for Recently Deleted")
        }
        let record = state.input == nil ? "i to choose an input, then r to record" : "r to record"
        if !ways.isEmpty { return "No memos. Press \((ways + [record]).joined(separator: ", "))." }
        if state.input == nil { return "No memos yet. Press i to choose an input, then r to record." }
        return "No memos yet. Press r to record your first one."
    }
}
