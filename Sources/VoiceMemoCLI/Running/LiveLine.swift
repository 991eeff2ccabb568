import Audio
import Metering

/// The one live status line `record` keeps on a terminal's stderr (like sox -S):
/// elapsed time, a level bar per channel, the peak so far and overruns.
struct LiveLine {
    private let bars: LevelBars

    init(console: Console, channels: Int) {
        bars = LevelBars(console: console, channels: channels)
    }

    func show(recorder: Recorder, levels: Levels, peak: [Float]) {
        var line = recorder.isRecording ? "● REC " : "  ... "
        line += DisplayFormat.elapsedTime(seconds: recorder.currentTime)
        line += bars.bars { levels.average[$0] }
        line += "  peak " + DisplayFormat.decibels(peak.max() ?? -160)
        line += "  clips \(recorder.clipCounts.reduce(0, +))"
        let overruns = recorder.statistics.overruns
        if overruns > 0 { line += "  overruns \(overruns)" }
        bars.redraw(line)
    }

    func clear() {
        bars.clear()
    }
}
