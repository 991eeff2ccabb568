import Audio
import Metering

/// The one live status line `record` keeps on a terminal's stderr (like sox -S):
/// elapsed time, a level bar per channel, the peak so far and overruns.
struct LiveLine {
    let console: Console
    let channels: Int
    private let table = MeterTable()
    private let barWidth = 12

    init(console: Console, channels: Int) {
        self.console = console
        self.channels = channels
    }

    func show(recorder: Recorder, levels: Levels, peak: [Float]) {
        var line = recorder.isRecording ? "● REC " : "  ... "
        line += DisplayFormat.elapsedTime(seconds: recorder.currentTime)
        let shown = min(channels, 2)
        for channel in 0..<shown {
            let lit = Int((table.value(forPower: levels.average[channel]) * Float(barWidth)).rounded())
            line += "  " + String(repeating: "█", count: lit) + String(repeating: "░", count: barWidth - lit)
        }
        if channels > shown { line += " +\(channels - shown) ch" }
        line += "  peak " + DisplayFormat.decibels(peak.max() ?? -160)
        line += "  clips \(recorder.clipCounts.reduce(0, +))"
        let overruns = recorder.statistics.overruns
        if overruns > 0 { line += "  overruns \(overruns)" }
        console.writeError("\r" + line + "\u{1B}[K")
    }

    func clear() {
        console.writeError("\r\u{1B}[K")
    }
}
