/// The dB scale under the LED rows, its marks placed through the same scale as the LEDs.
enum ScaleView {
    static let marks: [Float] = [-60, -50, -40, -30, -20, -10, -6, -3, 0]

    static func render(_ state: AppState, in row: Rect, on screen: inout Screen) {
        guard state.input != nil || state.playback != nil, !row.isEmpty else { return }
        let geometry = MeterGeometry(width: row.width)
        guard geometry.cells >= 10 else { return }
        let origin = row.x + MeterGeometry.labelWidth
        var nextFree = row.x
        for mark in marks {
            let text = "\(Int(mark))"
            let position = Int((state.meterScale.value(forPower: mark) * Float(geometry.cells)).rounded())
            let end = min(origin + position, origin + geometry.cells)
            let start = max(end - text.count, row.x)
            guard start >= nextFree else { continue }
            screen.put(text, x: start, y: row.y, style: .dim, maxWidth: row.x + row.width - start)
            nextFree = start + text.count + 1
        }
        screen.put("dB", x: origin + geometry.cells + 1, y: row.y, style: .dim, maxWidth: row.x + row.width - origin - geometry.cells - 1)
    }
}
