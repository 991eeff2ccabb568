import Audio
import Metering

/// The one live status line `play` keeps on a terminal's stderr: state, elapsed /
/// total, a level bar per channel (average, through the MeterTable) and the peak.
struct PlayLiveLine {
    let console: Console
    let channels: Int
    private let table = MeterTable()
    private let barWidth = 12

    init(console: Console, channels: Int) {
        self.console = console
        self.channels = channels
    }

    func show(player: Player) {
        var line = player.isPlaying ? "▶ " : "❚❚ "
        line += DisplayFormat.elapsedTime(seconds: player.currentTime)
        line += " / " + DisplayFormat.elapsedTime(seconds: player.duration)
        let shown = min(channels, 2)
        var peak = Decibels.floor
        for channel in 0..<shown {
            let level = table.value(forPower: player.averagePower(forChannel: channel))
            let lit = min(barWidth, max(0, Int((level * Float(barWidth)).rounded())))
            line += "  " + String(repeating: "█", count: lit) + String(repeating: "░", count: barWidth - lit)
        }
        for channel in 0..<channels {
            peak = max(peak, player.peakPower(forChannel: channel))
        }
        if channels > shown { line += " +\(channels - shown) ch" }
        line += "  peak " + DisplayFormat.decibels(peak)
        let underruns = player.underruns
        if underruns > 0 { line += "  underruns \(underruns)" }
        console.writeError("\r" + line + "\u{1B}[K")
    }

    func clear() {
        console.writeError("\r\u{1B}[K")
    }
}
