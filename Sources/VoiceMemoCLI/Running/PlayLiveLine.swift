import Audio
import Metering

/// The one live status line `play` keeps on a terminal's stderr: state, elapsed /
/// total, a level bar per channel (average, through the MeterTable) and the peak.
struct PlayLiveLine {
    private let bars: LevelBars

    init(console: Console, channels: Int) {
        bars = LevelBars(console: console, channels: channels)
    }

    func show(player: Player) {
        var line = player.isPlaying ? "▶ " : "❚❚ "
        line += DisplayFormat.elapsedTime(seconds: player.currentTime)
        line += " / " + DisplayFormat.elapsedTime(seconds: player.duration)
        line += bars.bars { player.averagePower(forChannel: $0) }
        let peak = (0..<bars.channels).map { player.peakPower(forChannel: $0) }.max() ?? Decibels.floor
        line += "  peak " + DisplayFormat.decibels(peak)
        let underruns = player.underruns
        if underruns > 0 { line += "  underruns \(underruns)" }
        bars.redraw(line)
    }

    func clear() {
        bars.clear()
    }
}
