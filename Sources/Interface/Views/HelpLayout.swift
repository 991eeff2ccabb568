/// Where the help screen's keys go: one column, or two on a screen at least
/// `twoColumnsWidth` wide; the memo table's keys under their group's heading; a description
/// too long for its column wrapped at a word onto the next line, indented under its first.
/// Scrolled by `AppState.helpScroll` when the lines do not fit. The renderer draws with it
/// and the reducer scrolls with it, so a key is never out of reach.
struct HelpLayout {
    /// One line of a column.
    enum Line: Equatable {
        /// A group's name (`KeyGroup.title`).
        case heading(String)
        /// Keys and the first line of what they do; a wrapped line has no keys.
        case entry(keys: String, text: String)
    }

    /// Help takes two columns from this width: each is then wide enough for a key and a
    /// description of 40 cells or more (wrapped, never cut).
    static let twoColumnsWidth = 120

    /// The rectangle between the header and the status line.
    let area: Rect
    /// Columns of keys side by side.
    let columns: Int
    /// Cells per column (the last column takes what is left).
    let columnWidth: Int
    /// Cells of the keys' column, the widest keys.
    let keyWidth: Int
    /// Cells a description's line may take.
    let textWidth: Int
    /// Each column's lines, groups whole.
    let lines: [[Line]]
    /// Rows the keys need in `columns` columns.
    let rowCount: Int
    /// Rows shown at once (the area minus its title line).
    let visibleRows: Int
    /// The first row shown, clamped.
    let scroll: Int

    init(_ state: AppState) {
        let layout = state.layout
        let top = layout.header.height
        let bottom = layout.status?.y ?? layout.footer?.y ?? state.height
        area = Rect(x: 0, y: top, width: state.width, height: max(bottom - top, 0))
        let sections = state.helpScreen.helpSections
        keyWidth = sections.flatMap(\.entries).map { DisplayWidth.of($0.0) }.max() ?? 0
        columns = area.width >= Self.twoColumnsWidth ? 2 : 1
        columnWidth = max((area.width - 2) / columns, 1)
        // The first of two columns leaves two cells before the second.
        let width = max(columnWidth - keyWidth - 2 - (columns > 1 ? 2 : 0), 1)
        textWidth = width
        // What a column cannot split: a group with its heading, or an ungrouped key.
        var blocks: [[Line]] = []
        for section in sections {
            let entries = section.entries.map { entry in
                Self.wrap(entry.1, toWidth: width).enumerated().map { Line.entry(keys: $0.offset == 0 ? entry.0 : "", text: $0.element) }
            }
            if let title = section.title {
                blocks.append([.heading(title)] + entries.flatMap { $0 })
            } else {
                blocks += entries
            }
        }
        lines = Self.split(blocks, into: columns)
        rowCount = lines.map(\.count).max() ?? 0
        visibleRows = max(area.height - 1, 0)
        scroll = max(0, min(state.helpScroll, rowCount - visibleRows))
    }

    /// `blocks` in `columns` columns, in order, the tallest column as short as it can be.
    static func split(_ blocks: [[Line]], into columns: Int) -> [[Line]] {
        guard columns == 2, blocks.count > 1 else { return [blocks.flatMap { $0 }] }
        let heights = blocks.map(\.count)
        let total = heights.reduce(0, +)
        var best = (cut: blocks.count, tallest: total)
        var first = 0
        for cut in 1..<blocks.count {
            first += heights[cut - 1]
            let tallest = max(first, total - first)
            if tallest < best.tallest { best = (cut, tallest) }
        }
        return [blocks[..<best.cut].flatMap { $0 }, blocks[best.cut...].flatMap { $0 }]
    }

    /// `text` in lines of at most `width` cells, broken between words (a word longer than a
    /// line is broken where the line ends).
    static func wrap(_ text: String, toWidth width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            var word = word
            if !line.isEmpty, DisplayWidth.of(line) + 1 + DisplayWidth.of(word) <= width {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            while DisplayWidth.of(word) > width {
                var head = ""
                for character in word {
                    if DisplayWidth.of(head + String(character)) > width { break }
                    head.append(character)
                }
                if head.isEmpty { head = String(word.first!) }
                lines.append(head)
                word.removeFirst(head.count)
            }
            line = word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Whether some keys are out of sight.
    var scrolls: Bool { rowCount > visibleRows }

    /// The largest useful scroll.
    var maximumScroll: Int { max(rowCount - visibleRows, 0) }

    /// Opens the help screen at its top, with the keys of the screen it is opened on; any
    /// key but the scrolling ones goes back there.
    static func open(_ state: inout AppState) {
        state.helpScroll = 0
        state.helpScreen = KeyScreen(state.mode) ?? .memoTable
        state.modeUnderHelp = state.helpScreen == .memoTable ? .browsing : state.mode
        state.mode = .help
    }

    /// Scrolls for a scrolling key and returns true; false for any other key (which closes help).
    static func scroll(_ key: Key, _ state: inout AppState) -> Bool {
        let help = HelpLayout(state)
        guard help.scrolls else { return false }
        let page = max(help.visibleRows - 1, 1)
        let target: Int
        switch key {
        case .up, .character("k"): target = help.scroll - 1
        case .down, .character("j"): target = help.scroll + 1
        case .pageUp: target = help.scroll - page
        case .pageDown, .character(" "): target = help.scroll + page
        case .home, .character("g"): target = 0
        case .end, .character("G"): target = help.maximumScroll
        default: return false
        }
        state.helpScroll = max(0, min(target, help.maximumScroll))
        return true
    }
}
