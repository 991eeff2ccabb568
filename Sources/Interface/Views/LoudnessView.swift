import Metering

/// The loudness mode's two LED rows: M (momentary, 400 ms) and S (short-term, 3 s) loudness
/// of the whole programme, on the EBU Tech 3341 "+9" scale (target − 18 LU … target + 9 LU,
/// linear in LU), with the target marked on both rows and the numbers in LUFS and in LU
/// from the target.
enum LoudnessView {
    /// LU below the target where the rows start, and above it where they end.
    static let below = 18.0
    static let above = 9.0

    /// The 0…1 position of `loudness` (LUFS) for `target`.
    static func position(_ loudness: Double?, target: Double) -> Float {
        guard let loudness, loudness.isFinite else { return 0 }
        return Float(min(max((loudness - (target - below)) / (below + above), 0), 1))
    }

    static func render(_ state: AppState, rows: [Rect], geometry: MeterGeometry, on screen: inout Screen) {
        let theme = Theme(state)
        let readings = [("M", state.momentaryLoudness), ("S", state.shortTermLoudness)]
        let clipped = state.clipLatch.isLatched
        for ((label, loudness), row) in zip(readings, rows) {
            screen.put(" \(label) ", x: row.x, y: row.y, style: .bold, maxWidth: row.width)
            let lights = LEDBar.lights(level: position(loudness, target: state.loudnessTarget), peak: 0, count: geometry.ledCount)
            MeterView.drawLights(lights, row: row, geometry: geometry, theme: theme, on: &screen)
            MeterView.mark(position: position(state.loudnessTarget, target: state.loudnessTarget), row: row, geometry: geometry, usesColor: state.usesColor, on: &screen)
            let numbersX = row.x + MeterGeometry.labelWidth + geometry.cells
            switch geometry.numbers {
            case .full:
                let text = "  " + TextFitting.rightAligned(lufs(loudness, target: state.loudnessTarget) + " LUFS", toWidth: 11)
                    + "  " + TextFitting.rightAligned(relative(loudness, target: state.loudnessTarget).map { $0 + " LU" } ?? "", toWidth: 8)
                screen.put(text, x: numbersX, y: row.y, maxWidth: 23)
                if clipped, label == "M" { screen.put("CLIP", x: numbersX + 24, y: row.y, style: theme.clip) }
            case .compact:
                let text = MeterGeometry.compactNumbers(lufs(loudness, target: state.loudnessTarget), relative(loudness, target: state.loudnessTarget) ?? "")
                screen.put(text, x: numbersX, y: row.y, maxWidth: 14)
                if clipped, label == "M" { screen.put("!", x: numbersX + MeterGeometry.compactClipOffset, y: row.y, style: theme.clip) }
            case .none:
                if clipped, label == "M" { screen.put("!", x: row.x, y: row.y, style: theme.clip) }
            }
        }
    }

    /// "-23.4"; "--.-" before the first reading, and below the rows' floor (target − 18 LU,
    /// digital silence included) "<-41", as every meter mode reads what it cannot show.
    static func lufs(_ loudness: Double?, target: Double) -> String {
        guard let loudness else { return "--.-" }
        let floor = target - below
        guard loudness.isFinite, loudness >= floor else { return DisplayFormat.belowFloor(Float(floor)) }
        return DisplayFormat.decibels(Float(loudness), includingUnit: false)
    }

    /// "+0.4", "-3.2": LU from the target; "<-18" below the rows' floor; `nil` before the first reading.
    static func relative(_ loudness: Double?, target: Double) -> String? {
        guard let loudness else { return nil }
        guard loudness.isFinite, loudness >= target - below else { return DisplayFormat.belowFloor(Float(-below)) }
        let text = DisplayFormat.decibels(Float(loudness - target), includingUnit: false)
        return text.hasPrefix("-") ? text : "+" + text
    }
}
