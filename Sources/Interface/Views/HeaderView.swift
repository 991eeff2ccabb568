import Metering

/// The top line: the app, the input, and on the right the state badge and the timer.
enum HeaderView {
    static func render(_ state: AppState, in row: Rect, on screen: inout Screen) {
        guard !row.isEmpty else { return }
        if let playback = state.playback {
            PlaybackHeaderView.render(state, playback, in: row, on: &screen)
            return
        }
        let theme = Theme(state)
        var timer = DisplayFormat.elapsedTime(frames: state.recordedFrames, sampleRate: state.input?.sampleRate ?? 0)
        let scheduled = state.recording == .idle ? state.scheduled : nil
        if let scheduled { timer = DisplayFormat.elapsedTime(seconds: max(0, (scheduled.start - state.now).rounded(.up))) }
        let (badge, badgeStyle): (String, Style) = switch state.recording {
        case .idle where scheduled != nil: ("starts \(scheduled?.label ?? "") in", theme.pausedBadge)
        case .idle: VoiceActivationView.badge(state, theme: theme) ?? ("idle", theme.dim)
        case .recording: ("● REC", theme.recordingBadge)
        case .paused: ("❚❚ PAUSED", theme.pausedBadge)
        }
        let rights = [badge + "  " + timer + " ", badge + " " + timer, timer, String(badge.prefix(1))]
        let right = rights.first { DisplayWidth.of($0) <= row.width } ?? ""
        let rightWidth = DisplayWidth.of(right)
        let rightX = row.x + row.width - rightWidth
        if right.hasPrefix(badge) || right == String(badge.prefix(1)) {
            let badgeWidth = min(DisplayWidth.of(badge), rightWidth)
            screen.put(right, x: rightX, y: row.y, maxWidth: rightWidth)
            screen.put(String(right.prefix(badge.count)), x: rightX, y: row.y, style: badgeStyle, maxWidth: badgeWidth)
        } else {
            screen.put(right, x: rightX, y: row.y, maxWidth: rightWidth)
        }

        let space = row.width - rightWidth - 1
        guard space > 0 else { return }
        let input = state.input
        let name = input.map(\.name.shownName) ?? "none"
        let details = input.map { ["\(rateText($0.sampleRate))", "\($0.channels) ch", $0.recordingFormat] } ?? []
        let full = (["input: \(name)"] + details).joined(separator: " · ")
        var x = row.x
        if DisplayWidth.of(" VoiceMemo   " + full) <= space {
            x += screen.put(" VoiceMemo", x: x, y: row.y, style: theme.title)
            x += screen.put("   ", x: x, y: row.y)
            screen.put(full, x: x, y: row.y)
        } else if DisplayWidth.of(" " + full) <= space {
            screen.put(" " + full, x: x, y: row.y)
        } else if space >= 8 {
            // Only the name, cut with "…"; below 8 columns a stub of it (" to") would say nothing.
            screen.put(" " + TextFitting.truncated(name, toWidth: space - 1), x: x, y: row.y, maxWidth: space)
        }
    }

    /// "48 kHz", "44.1 kHz", "8 kHz".
    static func rateText(_ rate: Int) -> String {
        let tenths = (rate + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) kHz" : "\(tenths / 10).\(tenths % 10) kHz"
    }
}
