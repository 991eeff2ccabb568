/// Where the help screen's keys go: one column, or two on a wide screen, scrolled by
/// `AppState.helpScroll` when they do not fit. The renderer draws with it and the reducer
/// scrolls with it, so a key is never out of reach.
struct HelpLayout {
    /// The rectangle between the header and the status line.
    let area: Rect
    /// Columns of keys side by side.
    let columns: Int
    /// Cells per column (the last column takes what is left).
    let columnWidth: Int
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
        let keyWidth = KeyHelp.entries(state).map { DisplayWidth.of($0.0) }.max() ?? 0
        let descriptionWidth = KeyHelp.entries(state).map { DisplayWidth.of($0.1) }.max() ?? 0
        let wanted = keyWidth + 2 + descriptionWidth + 2
        // Two columns only when each is wide enough for the longest key and the longest
        // description: a cut description would hide what the key does; one column scrolls.
        columns = max(1, min(2, (area.width - 2) / wanted))
        columnWidth = max((area.width - 2) / columns, 1)
        rowCount = (KeyHelp.entries(state).count + columns - 1) / columns
        visibleRows = max(area.height - 1, 0)
        scroll = max(0, min(state.helpScroll, rowCount - visibleRows))
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
