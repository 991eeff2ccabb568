import Metering

/// What voice activation adds to the screen: the header badge, the threshold mark on
/// the LED rows, the listening / silence countdown line, and the settings panel.
enum VoiceActivationView {
    /// The glyph that marks the threshold's LED.
    static let thresholdGlyph = MeterView.markGlyph

    /// "◎ VOICE" while listening, "● VOICE REC" while a take records; `nil` when off.
    static func badge(_ state: AppState, theme: Theme) -> (String, Style)? {
        guard let status = state.voice.status else { return nil }
        switch status.phase {
        case .calibrating, .listening: return ("◎ VOICE", theme.voiceBadge)
        case .recording: return ("● VOICE REC", theme.recordingBadge)
        }
    }

    /// Draws the threshold mark over the LED that holds the threshold.
    static func markThreshold(_ state: AppState, row: Rect, geometry: MeterGeometry, on screen: inout Screen) {
        guard let status = state.voice.status else { return }
        let position = state.meterScale.value(forPower: Float(status.thresholdDB))
        MeterView.mark(position: position, row: row, geometry: geometry, usesColor: state.usesColor, on: &screen)
    }

    /// The line under the meter: "silence 1.2/2.0 s" while a take records, "listening
    /// for -40 dB" while armed. Right of the dB scale when it fits, else in its place.
    static func renderCountdown(_ state: AppState, scale: Rect?, on screen: inout Screen) {
        guard let status = state.voice.status, let row = scale, !row.isEmpty else { return }
        let threshold = "\(Int(status.thresholdDB.rounded())) dB"
        let (text, style): (String, Style) = switch status.phase {
        case .calibrating: ("measuring the noise floor…", Theme(state).dim)
        case .listening: ("\(thresholdGlyph) listening for \(threshold)", .bold)
        case .recording:
            ("silence \(tenths(status.silence))/\(tenths(status.hangTime)) s", Theme(state).recordingBadge)
        }
        let geometry = MeterGeometry(width: row.width)
        let scaleEnd = geometry.cells >= 10 ? row.x + MeterGeometry.labelWidth + geometry.cells + 3 : row.x
        let width = DisplayWidth.of(text)
        let right = row.x + row.width - width - 1
        if right >= scaleEnd + 2 {
            screen.put(text, x: right, y: row.y, style: style)
        } else if status.phase == .recording {
            screen.put(String(repeating: " ", count: row.width), x: row.x, y: row.y)
            screen.put(" " + text, x: row.x, y: row.y, style: style, maxWidth: row.width)
        }
    }

    /// The settings panel: one line per parameter, the selected one highlighted.
    static func renderSettings(_ state: AppState, selected: VoiceParameters.Field, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        screen.put(" Voice activation (v) — for this session", x: area.x, y: area.y, style: theme.columnHeader, maxWidth: area.width)
        let parameters = state.voice.parameters
        for (offset, field) in VoiceParameters.Field.allCases.enumerated() where offset + 1 < area.height {
            let isSelected = field == selected
            let value = parameters.text(field)
            let shownValue = isSelected ? "◀ " + TextFitting.rightAligned(value, toWidth: 7) + " ▶" : "  " + TextFitting.rightAligned(value, toWidth: 7) + "  "
            var line = (isSelected ? "▶ " : "  ") + TextFitting.padded(field.label, toWidth: 10) + shownValue
            if area.width >= 50 { line += "   " + field.explanation }
            screen.put(TextFitting.padded(line, toWidth: area.width), x: area.x, y: area.y + 1 + offset,
                       style: isSelected ? theme.selection : .plain, maxWidth: area.width)
        }
        let note = state.voice.isArmed ? "Changes re-arm voice activation when you close this panel." : "v arms with these values; the config file sets the defaults."
        let y = area.y + 1 + VoiceParameters.Field.allCases.count + 1
        if y < area.y + area.height {
            for (offset, line) in TextFitting.wrapped(note, toWidth: area.width - 2).enumerated() where y + offset < area.y + area.height {
                screen.put(" " + line, x: area.x, y: y + offset, style: theme.dim, maxWidth: area.width)
            }
        }
    }

    /// "1.2", with one decimal.
    private static func tenths(_ value: Double) -> String {
        let tenths = Int((max(value, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
