import Metering

/// The waveform band under the meter: the memo that plays (else the selected one) drawn from
/// its stored peak envelope (`WaveformState`; the audio is never read to draw it), one column
/// per cell.
///
/// Row 1: an eighth-block glyph per column (`WaveformLine.heardText`: its height is the column's
/// peak on the memo's own scale, its loudest column full, its quiet stretches a sliver), dim outside the in … out range when one is set, the play head's column
/// in reverse video. Row 2: where things are — `▲` the play head, `[` the in point, `]` the out
/// point, `┃` each marker. Without colour every mark stays a glyph of its own.
///
/// The layout gives it room only once an envelope was read and from `Layout.waveformMinimumWidth`
/// columns with six rows left under it (`Layout`).
enum WaveformBandView {
    /// Rows the band takes.
    static let rows = 2

    static func render(_ state: AppState, in area: Rect, on screen: inout Screen) {
        if state.showsLiveWaveform {
            renderLive(state, in: area, on: &screen)
            return
        }
        guard !area.isEmpty, let memoID = state.playback?.memoID ?? state.selectedMemo?.id else { return }
        let theme = Theme(state)
        guard let waveform = state.waveform, waveform.memoID == memoID else {
            screen.put(" reading the waveform…", x: area.x, y: area.y, style: theme.dim, maxWidth: area.width)
            return
        }
        guard let envelope = waveform.envelope, !envelope.peaks.isEmpty else {
            let memo = state.memos.first { $0.id == memoID }
            let why = memo?.state == .recording ? "it is being recorded" : "none stored"
            screen.put(" no waveform: \(why)", x: area.x, y: area.y, style: theme.dim, maxWidth: area.width)
            return
        }
        let playback = state.playback.flatMap { $0.memoID == memoID ? $0 : nil }
        let blockSeconds = Double(envelope.blockFrames) / Double(max(1, envelopeRate(state, memoID)))
        let duration = playback?.duration ?? state.memos.first { $0.id == memoID }?.duration ?? Double(envelope.peaks.count) * blockSeconds
        let points = state.editPoints.flatMap { $0.memoID == memoID ? $0 : nil }
        let width = area.width
        func cell(_ time: Double) -> Int {
            guard duration > 0, time.isFinite else { return 0 }
            return min(max(Int(time / duration * Double(width)), 0), width - 1)
        }
        let keptStart = points?.inPoint.map(cell) ?? 0
        let keptEnd = points?.outPoint.map(cell) ?? width - 1
        let hasRange = points?.inPoint != nil || points?.outPoint != nil
        let head = playback.map { cell($0.elapsed) }
        let glyphs = Array(WaveformLine.heardText(envelope.columnPeaks(width: width)))
        for (column, glyph) in glyphs.enumerated() {
            var style = theme.color(.green)
            if hasRange, column < keptStart || column > keptEnd { style = theme.dim }
            if column == head { style = theme.selection }
            // A silent column under the play head still shows where it is.
            let text = column == head && glyph == " " ? "▁" : String(glyph)
            screen.put(text, x: area.x + column, y: area.y, style: style)
        }
        guard area.height >= 2 else { return }
        let marks = area.y + 1
        for time in playback?.markers ?? [] where time.isFinite {
            screen.put("┃", x: area.x + cell(time), y: marks, style: theme.color(.yellow, .bold))
        }
        let edges = editMarks(inPoint: points?.inPoint.map(cell), outPoint: points?.outPoint.map(cell), head: head, width: width)
        if let inCell = edges.inPoint { screen.put("[", x: area.x + inCell, y: marks, style: theme.color(.magenta, .bold)) }
        if let outCell = edges.outPoint { screen.put("]", x: area.x + outCell, y: marks, style: theme.color(.magenta, .bold)) }
        if let head { screen.put("▲", x: area.x + head, y: marks, style: theme.color(.green, .bold)) }
    }

    /// While it records: the recording's own waveform (`LiveWaveform`), one column per
    /// `LiveWaveform.binSeconds` of recorded audio, the newest at the right edge, and under it
    /// what it is ("live: this recording, the last 10 s"; "paused" while paused), so it is not
    /// taken for the selected memo's.
    private static func renderLive(_ state: AppState, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        let peaks = state.liveWaveform.columnPeaks(width: area.width)
        let glyphs = Array(WaveformLine.text(peaks))
        let style = state.recording == .paused ? theme.dim : theme.color(.red)
        let left = area.width - glyphs.count
        for (column, glyph) in glyphs.enumerated() {
            screen.put(String(glyph), x: area.x + left + column, y: area.y, style: style)
        }
        guard area.height >= 2 else { return }
        let span = DisplayFormat.seconds(LiveWaveform.seconds(width: area.width))
        let what = state.recording == .paused ? "paused: this recording" : "live: this recording"
        screen.put(" \(what), the last \(span)", x: area.x, y: area.y + 1, style: theme.dim, maxWidth: area.width)
    }

    /// The columns of `[` and `]` on the marks row. `(` and `)` set a point at the play head,
    /// so a point in the head's column moves beside it — `[` to its left, `]` to its right
    /// (or the other side at an edge of the band) — instead of being drawn over by `▲`. Pure.
    static func editMarks(inPoint: Int?, outPoint: Int?, head: Int?, width: Int) -> (inPoint: Int?, outPoint: Int?) {
        func beside(_ column: Int?, preferring step: Int) -> Int? {
            guard let column, column == head else { return column }
            let preferred = column + step
            return (0..<width).contains(preferred) ? preferred : (0..<width).contains(column - step) ? column - step : column
        }
        return (beside(inPoint, preferring: -1), beside(outPoint, preferring: 1))
    }

    /// The memo's rate (the envelope's blocks are frames of it); 48 kHz when unknown.
    private static func envelopeRate(_ state: AppState, _ memoID: Int64) -> Int {
        state.memos.first { $0.id == memoID }?.sampleRate ?? 48_000
    }

    /// `[` and `]` on the playback header's progress bar at the in and out points of memo
    /// `memoID`, when they are set on it.
    static func renderEditPoints(
        _ points: EditPoints?, of memoID: Int64, duration: Double, in bar: Rect, theme: Theme, on screen: inout Screen
    ) {
        guard let points, points.memoID == memoID, bar.width >= PlaybackHeaderView.minimumBarWidth, duration > 0 else { return }
        for (time, glyph) in [(points.inPoint, "["), (points.outPoint, "]")] {
            guard let time, time.isFinite else { continue }
            let cell = min(max(Int(time / duration * Double(bar.width)), 0), bar.width - 1)
            screen.put(glyph, x: bar.x + cell, y: bar.y, style: theme.color(.magenta, .bold))
        }
    }
}
