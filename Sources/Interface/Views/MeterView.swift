import Metering
import Vocabulary

/// The LED rows (one per channel) with their dB numbers and the clip indicator; in the
/// loudness mode, `LoudnessView`'s two rows instead.
enum MeterView {
    /// The glyph that marks one LED (a threshold, a target): unlike every LED glyph, so it reads without colour.
    static let markGlyph = "┃"

    static func render(_ state: AppState, rows: [Rect], on screen: inout Screen) {
        guard let first = rows.first else { return }
        let theme = Theme(state)
        guard state.input != nil || state.playback != nil, !state.shownMeters.isEmpty else {
            screen.put(" No input. Press i to choose one.", x: first.x, y: first.y, style: theme.dim, maxWidth: first.width)
            return
        }
        let geometry = MeterGeometry(width: first.width)
        if state.shownMeterMode == .loudness {
            LoudnessView.render(state, rows: rows, geometry: geometry, on: &screen)
            return
        }
        for (index, row) in rows.enumerated() where state.shownMeters.indices.contains(index) {
            renderRow(state, channel: index, row: row, geometry: geometry, theme: theme, on: &screen)
        }
        let hidden = state.shownMeters.count - rows.count
        if hidden > 0, let last = rows.last {
            // More channels than rows fit: say so at the end of the last row.
            let note = " +\(hidden) ch"
            let x = last.x + last.width - note.count
            let numbersEnd = last.x + MeterGeometry.labelWidth + geometry.cells + geometry.numbers.width
            if x >= numbersEnd { screen.put(note, x: x, y: last.y, style: theme.dim, maxWidth: note.count) }
        }
    }

    private static func renderRow(
        _ state: AppState, channel: Int, row: Rect, geometry: MeterGeometry, theme: Theme, on screen: inout Screen
    ) {
        let meter = state.shownMeters[channel]
        let input = state.playback == nil ? state.input?.name : nil
        screen.put(" \(label(channel, of: state.shownMeters.count, input: input)) ", x: row.x, y: row.y, style: .bold, maxWidth: row.width)
        let level = meter.level(in: state.shownMeterMode)
        let lights = LEDBar.lights(
            level: geometry.position(forPower: level, on: state.meterScale),
            peak: geometry.position(forPower: meter.heldPeak, on: state.meterScale),
            count: geometry.ledCount)
        drawLights(lights, row: row, geometry: geometry, theme: theme, on: &screen)
        VoiceActivationView.markNoiseFloor(state, row: row, geometry: geometry, on: &screen)
        VoiceActivationView.markThreshold(state, row: row, geometry: geometry, on: &screen)
        VoiceActivationView.markAlertLevel(state, row: row, geometry: geometry, on: &screen)
        let numbersX = row.x + MeterGeometry.labelWidth + geometry.cells
        let clipped = state.clipLatch.isLatched && state.playback == nil
        func reading(_ level: Float) -> String { DisplayFormat.meterReading(level, floor: state.meterScale.floor) }
        switch geometry.numbers {
        case .full:
            let label = TextFitting.rightAligned(state.shownMeterMode.descriptor.readingLabel, toWidth: 3)
            let text = " " + label + " " + TextFitting.rightAligned(reading(level), toWidth: 6)
                + "  pk " + TextFitting.rightAligned(reading(meter.heldPeak), toWidth: 6)
            screen.put(text, x: numbersX, y: row.y, maxWidth: 22)
            if clipped { screen.put("CLIP", x: numbersX + 24, y: row.y, style: theme.clip) }
        case .compact:
            let text = MeterGeometry.compactNumbers(reading(level), reading(meter.heldPeak))
            screen.put(text, x: numbersX, y: row.y, maxWidth: 14)
            if clipped { screen.put("!", x: numbersX + MeterGeometry.compactClipOffset, y: row.y, style: theme.clip) }
        case .none:
            if clipped { screen.put("!", x: row.x, y: row.y, style: theme.clip) }
        }
    }

    /// Draws one row of LEDs, each `geometry.ledWidth` cells wide, after the row's label.
    static func drawLights(_ lights: [LEDBar.Light], row: Rect, geometry: MeterGeometry, theme: Theme, on screen: inout Screen) {
        var x = row.x + MeterGeometry.labelWidth
        for light in lights {
            let cell = self.cell(for: light, theme: theme)
            for _ in 0..<geometry.ledWidth {
                screen.set(x: x, y: row.y, cell)
                x += 1
            }
        }
    }

    /// The LED that holds `position` (0…1 on the row's scale).
    static func ledIndex(position: Float, geometry: MeterGeometry) -> Int {
        min(max(Int(min(max(position, 0), 1) * Float(geometry.ledCount)), 0), geometry.ledCount - 1)
    }

    /// Draws `glyph` (`markGlyph` unless given) over the LED at `position` (0…1 on the row's
    /// scale), on the LED's cell `cell` (0, the first, unless given; kept inside the LED).
    static func mark(
        position: Float, row: Rect, geometry: MeterGeometry, usesColor: Bool, glyph: String = markGlyph,
        style: Style? = nil, cell: Int = 0, on screen: inout Screen
    ) {
        guard geometry.ledCount > 0, !position.isNaN else { return }
        let index = ledIndex(position: position, geometry: geometry)
        let x = row.x + MeterGeometry.labelWidth + index * geometry.ledWidth + min(max(cell, 0), geometry.ledWidth - 1)
        let style = style ?? (usesColor ? Style(foreground: .white, attributes: .bold) : Style(attributes: .bold))
        screen.set(x: x, y: row.y, Cell(glyph: glyph, style: style))
    }

    /// "L"/"R" for stereo, "M" for mono, channel numbers beyond, a meeting's "M" and "D"
    /// (`ChannelLabel`).
    static func label(_ channel: Int, of count: Int, input: InputName? = nil) -> String {
        ChannelLabel.name(channel, of: count, input: input)
    }

    /// The glyph and style of one LED. In colour: lit `█`, partly lit `▒`/`▓`, unlit a dim
    /// `░`, all in the zone's colour. Without colour the zones differ by glyph (green `█`,
    /// yellow `▓`, red `▒`), partly lit LEDs are dim and unlit ones a dim `·`.
    static func cell(for light: LEDBar.Light, theme: Theme) -> Cell {
        let color: Color = switch light.zone {
        case .green: .green
        case .yellow: .yellow
        case .red: .red
        }
        let peakAttributes: Style.Attributes = light.isPeak ? .bold : []
        if theme.usesColor {
            if light.intensity >= 1 { return Cell(glyph: "█", style: Style(foreground: color, attributes: peakAttributes)) }
            if light.intensity <= 0 { return Cell(glyph: "░", style: Style(foreground: color, attributes: .dim)) }
            return Cell(glyph: light.intensity < 0.5 ? "▒" : "▓", style: Style(foreground: color))
        }
        let glyph = switch light.zone {
        case .green: "█"
        case .yellow: "▓"
        case .red: "▒"
        }
        if light.intensity >= 1 { return Cell(glyph: glyph, style: Style(attributes: peakAttributes)) }
        if light.intensity <= 0 { return Cell(glyph: "·", style: .dim) }
        return Cell(glyph: glyph, style: .dim)
    }
}
