import Metering

/// The top line while a memo plays: its title and a progress bar (markers `┃` on it) on the left, then how it
/// plays when that is not as recorded (`1.5×  +2 st  vol 120 %  CLIP  skip silence 3.1 s`),
/// the state badge (`▶` playing, `❚❚` paused) and "elapsed / total" (memo time, whatever
/// the speed) on the right.
///
/// As the line narrows the title goes first, then the settings' long form (for `1.5× +2st
/// 120% CLIP skip 3.1s`, then `1.5× CLIP`), then the bar, then the settings, then the
/// total; the badge and the play head stay longest.
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

        var end = rightX - 1
        var x = row.x + 1
        let forms = settingsTexts(state.playbackSettings, playback)
        if let form = forms.first(where: { !$0.isEmpty && DisplayWidth.of($0.text) + 1 + minimumBarWidth <= end - x })
            ?? forms.first(where: { !$0.isEmpty && DisplayWidth.of($0.text) + 1 <= end - x })
        {
            let width = DisplayWidth.of(form.text)
            end -= width + 1
            var partX = end + 1
            for (part, isClip) in form.parts {
                partX += screen.put(part, x: partX, y: row.y, style: isClip ? theme.clip : theme.color(.cyan))
                partX += DisplayWidth.of(form.separator)
            }
        }
        guard end - x >= minimumBarWidth else { return }
        let title = state.playingTitle ?? playback.title
        let titleRoom = (end - x) / 3
        if titleRoom >= 6 {
            x += screen.put(TextFitting.truncated(title, toWidth: titleRoom), x: x, y: row.y, style: theme.title)
            x += 2
        }
        let bar = Rect(x: x, y: row.y, width: end - x, height: 1)
        renderBar(fraction: playback.fraction, in: bar, theme: theme, on: &screen)
        renderMarkers(playback, in: bar, theme: theme, on: &screen)
        WaveformBandView.renderEditPoints(state.editPoints, of: playback.memoID, duration: playback.duration, in: bar, theme: theme, on: &screen)
    }

    /// A `┃` (yellow) on the bar's cell for each marker.
    static func renderMarkers(_ playback: PlaybackState, in area: Rect, theme: Theme, on screen: inout Screen) {
        guard area.width >= minimumBarWidth, playback.duration > 0 else { return }
        for time in playback.markers where time.isFinite {
            let cell = min(max(Int(time / playback.duration * Double(area.width)), 0), area.width - 1)
            screen.put("┃", x: area.x + cell, y: area.y, style: theme.color(.yellow, .bold))
        }
    }

    /// The settings that differ from "as recorded", in a long and a short form.
    struct SettingsText {
        var parts: [(String, isClip: Bool)]
        var separator: String
        var isEmpty: Bool { parts.isEmpty }
        var text: String { parts.map(\.0).joined(separator: separator) }
    }

    static func settingsTexts(_ settings: PlaybackSettings, _ playback: PlaybackState) -> [SettingsText] {
        var long: [(String, isClip: Bool)] = []
        var short: [(String, isClip: Bool)] = []
        if settings.speedTenths != 10 {
            long.append((settings.speedText, false))
            short.append((settings.speedText, false))
        }
        if settings.pitchSemitones != 0 {
            long.append((settings.pitchText, false))
            short.append((String(settings.pitchText.filter { $0 != " " }), false))
        }
        if settings.volumePercent != 100 {
            long.append((settings.volumeText, false))
            short.append(("\(settings.volumePercent)%", false))
        }
        if playback.isClipping {
            long.append(("CLIP", true))
            short.append(("CLIP", true))
        }
        if settings.skipsSilence {
            let seconds = tenthsText(playback.skippedSeconds)
            long.append(("skip silence \(seconds) s", false))
            short.append(("skip \(seconds)s", false))
        }
        if settings.enhances {
            long.append(("enhanced", false))
            short.append(("enh", false))
        }
        let least = short.filter { $0.isClip || $0.0.hasSuffix("×") }
        return [SettingsText(parts: long, separator: "  "), SettingsText(parts: short, separator: " "), SettingsText(parts: least, separator: " ")]
    }

    /// `3.1`: seconds to a tenth, rounded down (what has been skipped, not more).
    static func tenthsText(_ seconds: Double) -> String {
        let tenths = seconds.isFinite ? Int(min(max(seconds, 0), 1e9) * 10) : 0
        return "\(tenths / 10).\(tenths % 10)"
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
