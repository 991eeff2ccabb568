import Metering

/// The scale under the LED rows, each mark centred on the LED that lights at it (placed with
/// the LEDs' own `MeterGeometry.position`), and after it the unit and the meter mode's name,
/// so the rows say what they are.
enum ScaleView {
    static let marks: [Float] = [-60, -50, -40, -30, -20, -10, -6, -3, 0]
    /// The loudness mode's marks, LU from the target.
    static let loudnessMarks: [Double] = [-18, -12, -6, 0, 6, 9]

    static func render(_ state: AppState, in row: Rect, on screen: inout Screen) {
        guard state.input != nil || state.playback != nil, !row.isEmpty else { return }
        let geometry = MeterGeometry(width: row.width)
        guard geometry.cells >= 10 else { return }
        let mode = state.shownMeterMode
        let placed: [(text: String, position: Float)] = mode == .loudness
            ? loudnessMarks.map { mark in
                (mark > 0 ? "+\(Int(mark))" : "\(Int(mark))", LoudnessView.position(state.loudnessTarget + mark, target: state.loudnessTarget))
            }
            : marks.map { ("\(Int($0))", geometry.position(forPower: $0, on: state.meterScale)) }
        let origin = row.x + MeterGeometry.labelWidth
        if let zone = goodLevelLEDs(state, geometry: geometry) {
            // Drawn first: the marks that fall inside it are written over it.
            let style = state.usesColor ? Style(foreground: .green) : Style.dim
            for x in (origin + zone.lowerBound * geometry.ledWidth)..<(origin + (zone.upperBound + 1) * geometry.ledWidth) {
                screen.set(x: x, y: row.y, Cell(glyph: goodLevelGlyph, style: style))
            }
        }
        var nextFree = row.x
        for (text, position) in placed {
            // Centred on the LED that lights at the mark (a 3-character mark over a 2-cell LED
            // starts a cell before it).
            let led = MeterView.ledIndex(position: position, geometry: geometry)
            let offset = Int((Double(geometry.ledWidth - text.count) / 2).rounded(.down))
            let start = max(origin + led * geometry.ledWidth + offset, row.x)
            guard start >= nextFree, start + text.count <= origin + geometry.cells + 1 else { continue }
            screen.put(text, x: start, y: row.y, style: .dim, maxWidth: row.x + row.width - start)
            nextFree = start + text.count + 1
        }
        let x = origin + geometry.cells + 1
        // Voice activation's countdown has the row's right end: the legend takes what is left of it.
        let end = VoiceActivationView.placedCountdown(state, row: row).map { $0.x - 2 } ?? row.x + row.width
        let room = end - x
        let labels = self.labels(state)
        let label = labels.first { DisplayWidth.of($0) <= room } ?? labels[labels.count - 1]
        screen.put(label, x: x, y: row.y, style: .dim, maxWidth: room)
    }

    /// The glyph of the good level's line on the scale row: heavier than the separators' `─`,
    /// and `=` in ASCII, so the marks inside it (`-30━━━-20`) never run into it as minus signs.
    static let goodLevelGlyph = "━"

    /// The LEDs (first…last) that light for a reading in the meter mode's good level
    /// (`MeterModeDescriptor.goodLevel`), while the rows show the input; `nil` while a memo
    /// plays (the zone is for recording: the player's volume moves its levels).
    static func goodLevelLEDs(_ state: AppState, geometry: MeterGeometry) -> ClosedRange<Int>? {
        guard state.playback == nil, geometry.ledCount > 0 else { return nil }
        let mode = state.shownMeterMode
        let zone = mode.descriptor.goodLevel
        func led(_ level: Float) -> Int {
            let position = mode == .loudness
                ? LoudnessView.position(state.loudnessTarget + Double(level), target: state.loudnessTarget)
                : geometry.position(forPower: level, on: state.meterScale)
            return MeterView.ledIndex(position: position, geometry: geometry)
        }
        let (low, high) = (led(zone.lowerBound), led(zone.upperBound))
        return low <= high ? low...high : nil
    }

    /// The unit and the mode's name after the scale, longest first: "dBFS  PPM type II (playback)",
    /// "LU  loudness, 0 = -23 LUFS"; the first that fits is shown. While the rows show the
    /// input, each form is tried first with what the good level's `━━` is.
    static func labels(_ state: AppState) -> [String] {
        let mode = state.shownMeterMode
        let names: [String]
        if mode == .loudness {
            let target = state.loudnessTarget.rounded() == state.loudnessTarget
                ? "\(Int(state.loudnessTarget))" : DisplayFormat.decibels(Float(state.loudnessTarget), includingUnit: false)
            names = ["LU  loudness, 0 = \(target) LUFS", "LU 0=\(target) LUFS", "LU"]
        } else {
            let playing = state.playback != nil ? " (playback)" : ""
            names = ["dBFS  " + mode.descriptor.name + playing, "dBFS " + mode.descriptor.name + playing, "dBFS " + mode.descriptor.name, "dBFS", "dB"]
        }
        guard state.playback == nil else { return names }
        let line = goodLevelGlyph + goodLevelGlyph
        return names.flatMap { [$0 + "  \(line) good level", $0 + " \(line) good", $0] }
    }
}
