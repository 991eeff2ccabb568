import Metering

/// The top line while a memo plays: its title and a progress bar on the left, the state
/// badge (`▶` playing, `❚❚` paused) and "elapsed / total" on the right.
///
/// As the line narrows the title goes first, then the bar, then the total; the badge
/// and the play head stay longest.
enum PlaybackHeaderView {
    /// Narrowest progress bar worth drawing, in cells.
    static let minimumBarWidth = 4

    static func render(_ state: AppState, _ playback: PlaybackState, in row: Rect, on screen: inout Screen) {
        guard !row.isEmpty else { return }
        let theme = Theme(state)
        let badge = playback.isPaused ? "❚❚" : "▶"
        let badgeStyle = playback.isPaused ? theme.pausedBadge : theme.color(.green, .bold)
        let elapsed = DisplayFormat.elapsedTime(seconds: playback.elapsed)
        let timer = elapsed + " / " + DisplayFormat.elapsedTime(seconds: playback.duration)
        let rights = [badge + "  " + timer + " ", badge + " " + timer, badge + " " + elapsed, elapsed, badge]
        let right = rights.first { DisplayWidth.of($0) <= row.width } ?? ""
        let rightWidth = DisplayWidth.of(right)
        let rightX = row.x + row.width - rightWidth
        screen.put(right, x: rightX, y: row.y, maxWidth: rightWidth)
        if right.hasPrefix(badge) {
            screen.put(badge, x: rightX, y: row.y, style: badgeStyle, maxWidth: rightWidth)
        }

        let end = rightX - 1
        var x = row.x + 1
        guard end - x >= minimumBarWidth else { return }
        let title = state.playingTitle ?? playback.title
        let titleRoom = (end - x) / 3
        if titleRoom >= 6 {
            x += screen.put(TextFitting.truncated(title, toWidth: titleRoom), x: x, y: row.y, style: theme.title)
            x += 2
        }
        renderBar(fraction: playback.fraction, in: Rect(x: x, y: row.y, width: end - x, height: 1), theme: theme, on: &screen)
    }

    /// `█` for what has been played, `░` (dim) for what is left; at least one cell each
    /// way is honest to the fraction, rounded down so the bar is full only at the end.
    static func renderBar(fraction: Double, in area: Rect, theme: Theme, on screen: inout Screen) {
        guard area.width >= minimumBarWidth else { return }
        let played = min(max(Int(fraction * Double(area.width)), 0), area.width)
        screen.put(String(repeating: "█", count: played), x: area.x, y: area.y, style: theme.color(.green))
        screen.put(String(repeating: "░", count: area.width - played), x: area.x + played, y: area.y, style: theme.dim)
    }
}
