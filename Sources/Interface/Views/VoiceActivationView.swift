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
        case .calibrating, .listening, .replaying: return ("◎ VOICE", theme.voiceBadge)
        case .recording: return ("● VOICE REC", theme.recordingBadge)
        }
    }

    /// The threshold the mark shows: while the `V` panel is open the panel's, as it is
    /// changed (tuning by eye: it applies when the panel closes), else the armed detector's;
    /// `nil` when voice activation is off and the panel closed.
    static func shownThreshold(_ state: AppState) -> Double? {
        if case .voiceSettings = state.mode { return state.voice.parameters.thresholdDB }
        return state.voice.status?.thresholdDB
    }

    /// Whether the panel is open with a threshold other than the one armed (or none armed).
    static func thresholdIsPending(_ state: AppState) -> Bool {
        guard case .voiceSettings = state.mode else { return false }
        return state.voice.status?.thresholdDB != state.voice.parameters.thresholdDB
    }

    /// Draws the threshold mark over the LED that holds the threshold.
    static func markThreshold(_ state: AppState, row: Rect, geometry: MeterGeometry, on screen: inout Screen) {
        guard let threshold = shownThreshold(state) else { return }
        let position = geometry.position(forPower: Float(threshold), on: state.meterScale)
        MeterView.mark(position: position, row: row, geometry: geometry, usesColor: state.usesColor, on: &screen)
    }

    /// The glyph that marks the noise floor's LED: lighter than the threshold's.
    static let noiseFloorGlyph = "┆"

    /// Draws the noise-floor mark over the LED that holds the room's floor (beside the
    /// threshold mark when both fall on one LED two cells wide, under it when the LED is one
    /// cell). Bold when the floor is close to the threshold.
    static func markNoiseFloor(_ state: AppState, row: Rect, geometry: MeterGeometry, on screen: inout Screen) {
        guard let status = state.voice.status, let floor = status.noiseFloorDB else { return }
        let position = geometry.position(forPower: Float(floor), on: state.meterScale)
        guard position > 0 else { return }
        let style: Style = status.noiseIsClose
            ? (state.usesColor ? Style(foreground: .yellow, attributes: .bold) : Style(attributes: .bold))
            : (state.usesColor ? Style(foreground: .white) : .plain)
        // On the threshold's own LED the floor takes the LED's second cell, where there is one.
        let threshold = geometry.position(forPower: Float(shownThreshold(state) ?? status.thresholdDB), on: state.meterScale)
        let shared = MeterView.ledIndex(position: position, geometry: geometry)
            == MeterView.ledIndex(position: threshold, geometry: geometry)
        MeterView.mark(
            position: position, row: row, geometry: geometry, usesColor: state.usesColor, glyph: noiseFloorGlyph,
            style: style, cell: shared ? 1 : 0, on: &screen)
    }

    /// The line under the meter: "silence 1.2/2.0 s" while a take records, "▶ replaying the
    /// take, not listening" while it is replayed, "┆ room -55 dB ┃ listening for -40 dB" while
    /// armed (without the room when that does not fit). At the right end of the dB scale's row
    /// when it fits there with the unit ("dBFS") before it — the scale's legend then takes the
    /// room left of it (`placedCountdown`) —, else a take's countdown in the scale's place.
    static func renderCountdown(_ state: AppState, scale: Rect?, on screen: inout Screen) {
        guard let row = scale, !row.isEmpty, state.voice.status != nil || thresholdIsPending(state) else { return }
        if let placed = placedCountdown(state, row: row) {
            screen.put(placed.text, x: placed.x, y: row.y, style: placed.style)
        } else if state.voice.status?.phase == .recording, let (texts, style) = countdownTexts(state), let text = texts.first {
            screen.put(String(repeating: " ", count: row.width), x: row.x, y: row.y)
            screen.put(" " + text, x: row.x, y: row.y, style: style, maxWidth: row.width)
        }
    }

    /// The countdown's text, where it starts on the scale's row and its style, when it fits
    /// right of the scale: with at least the unit before it, else in the legend's place.
    static func placedCountdown(_ state: AppState, row: Rect) -> (text: String, x: Int, style: Style)? {
        guard let (texts, style) = countdownTexts(state) else { return nil }
        let geometry = MeterGeometry(width: row.width)
        // The scale's legend starts a cell after the LEDs: "dBFS" and two spaces first, where
        // they fit; else the text takes the legend's place.
        let legend = geometry.cells >= 10 ? row.x + MeterGeometry.labelWidth + geometry.cells + 1 : row.x
        for earliest in [legend + 4 + 2, legend] {
            if let text = texts.first(where: { row.x + row.width - DisplayWidth.of($0) - 1 >= earliest }) {
                return (text, row.x + row.width - DisplayWidth.of(text) - 1, style)
            }
        }
        return nil
    }

    /// The countdown's texts, longest first, and their style; `nil` while voice activation is off.
    private static func countdownTexts(_ state: AppState) -> ([String], Style)? {
        if thresholdIsPending(state), state.voice.status?.phase != .recording {
            // The panel's threshold, marked as it is changed: not yet what listens.
            let pending = "\(thresholdGlyph) \(Int(state.voice.parameters.thresholdDB.rounded())) dB"
            return state.voice.status == nil
                ? ([pending + " when v arms it", pending], .bold)
                : ([pending + " once the panel closes", pending + " when V closes", pending], .bold)
        }
        guard let status = state.voice.status else { return nil }
        let threshold = "\(Int(status.thresholdDB.rounded())) dB"
        return switch status.phase {
        case .calibrating: (["measuring the noise floor…"], Theme(state).dim)
        case .listening:
            ([roomText(status) + "\(thresholdGlyph) listening for \(threshold)", "\(thresholdGlyph) listening for \(threshold)"], .bold)
        case .recording:
            (["silence \(tenths(status.silence))/\(tenths(status.hangTime)) s"], Theme(state).recordingBadge)
        case .replaying: (["▶ replaying the take, not listening", "▶ replaying, not listening", "▶ replaying"], .bold)
        }
    }

    /// The settings panel: one line per parameter (voice activation's, then the noise
    /// alert's), the selected one highlighted.
    static func renderSettings(_ state: AppState, selected: SettingsField, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        screen.put(" Voice activation (v) and noise alert — for this session", x: area.x, y: area.y, style: theme.columnHeader, maxWidth: area.width)
        let fields = SettingsField.allCases
        // Rows that do not fit scroll so the selected one stays in view.
        let rows = max(area.height - 1, 0)
        let first = min(max(selected.index - rows + 1, 0), max(fields.count - rows, 0))
        for (offset, field) in fields.dropFirst(first).prefix(rows).enumerated() {
            let isSelected = field == selected
            let value = text(field, state)
            let shownValue = isSelected ? "◀ " + TextFitting.rightAligned(value, toWidth: 7) + " ▶" : "  " + TextFitting.rightAligned(value, toWidth: 7) + "  "
            var line = (isSelected ? "▶ " : "  ") + TextFitting.padded(field.label, toWidth: 10) + shownValue
            if area.width >= 50 { line += "   " + field.explanation }
            let dimmed = !isSelected && isSwitchedOff(field, state)
            screen.put(TextFitting.padded(line, toWidth: area.width), x: area.x, y: area.y + 1 + offset,
                       style: isSelected ? theme.selection : dimmed ? theme.dim : .plain, maxWidth: area.width)
        }
        // What the armed detector hears, live, in the blank row under the fields.
        if let hearing = state.voice.hearingText, rows >= fields.count, area.y + 1 + fields.count < area.y + area.height {
            let style: Style = state.voice.status?.hearsSpeech == true ? .bold : theme.dim
            screen.put(" " + hearing, x: area.x, y: area.y + 1 + fields.count, style: style, maxWidth: area.width)
        }
        let note = state.voice.isArmed ? "Changes re-arm voice activation when you close this panel." : "v arms with these values; the config file sets voice activation's defaults."
        let y = area.y + 1 + fields.count + 1
        if y < area.y + area.height {
            for (offset, line) in TextFitting.wrapped(note, toWidth: area.width - 2).enumerated() where y + offset < area.y + area.height {
                screen.put(" " + line, x: area.x, y: y + offset, style: theme.dim, maxWidth: area.width)
            }
        }
    }

    private static func text(_ field: SettingsField, _ state: AppState) -> String {
        switch field {
        case .voice(let field): state.voice.parameters.text(field)
        case .replay(let field): state.voice.parameters.replay.text(field)
        case .alert(let field): state.alert.parameters.text(field)
        }
    }

    /// Whether `field` is a detail of a switch that is off (the replay's pitch, the alert's
    /// level and time): drawn dim.
    private static func isSwitchedOff(_ field: SettingsField, _ state: AppState) -> Bool {
        switch field {
        case .voice, .replay(.replay), .alert(.alert): false
        case .replay(.pitch): !state.voice.parameters.replay.isOn
        case .alert(.level), .alert(.hold): !state.alert.parameters.isOn
        }
    }

    /// The glyph that marks the noise alert's level: unlike the threshold's `┃` and the floor's `┆`.
    static let alertGlyph = "!"

    /// Draws the alert mark over the LED that holds the alert level, while the alert is on
    /// (beside the voice threshold's mark when both fall on one LED two cells wide).
    static func markAlertLevel(_ state: AppState, row: Rect, geometry: MeterGeometry, on screen: inout Screen) {
        guard let alert = state.alert.armedWith, state.playback == nil else { return }
        let position = geometry.position(forPower: Float(alert.levelDB), on: state.meterScale)
        var shared = false
        if let status = state.voice.status {
            let threshold = geometry.position(forPower: Float(status.thresholdDB), on: state.meterScale)
            shared = MeterView.ledIndex(position: position, geometry: geometry) == MeterView.ledIndex(position: threshold, geometry: geometry)
        }
        let style = state.usesColor ? Style(foreground: .red, attributes: .bold) : Style(attributes: [.bold, .reverse])
        MeterView.mark(
            position: position, row: row, geometry: geometry, usesColor: state.usesColor, glyph: alertGlyph,
            style: style, cell: shared ? 1 : 0, on: &screen)
    }

    /// "┆ room -55 dB  " once the floor is known.
    private static func roomText(_ status: VoiceActivationSnapshot) -> String {
        status.noiseFloorDB.map { "\(noiseFloorGlyph) room \(Int($0.rounded())) dB  " } ?? ""
    }

    /// "1.2", with one decimal.
    private static func tenths(_ value: Double) -> String {
        let tenths = Int((max(value, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
