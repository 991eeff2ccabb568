import Metering

/// The part `record`'s and `play`'s live stderr lines share: a small level bar per
/// channel (average power through the MeterTable, at most two channels, then "+N ch"),
/// and redrawing the line in place.
struct LevelBars {
    let console: Console
    let channels: Int
    private let table = MeterTable()
    private let barWidth = 12

    init(console: Console, channels: Int) {
        self.console = console
        self.channels = channels
    }

    /// The lowest level the bars show (−60 dB): a peak below it reads "<-60", as on the app's
    /// meter, not "-160.0".
    var floor: Float { table.minDecibels }

    /// "  ██████░░░░░░  ████░░░░░░░░" for the first two channels' average powers.
    func bars(averagePower: (Int) -> Float) -> String {
        let shown = min(channels, 2)
        var text = ""
        for channel in 0..<shown {
            let level = table.value(forPower: averagePower(channel))
            let lit = min(barWidth, max(0, Int((level * Float(barWidth)).rounded())))
            text += "  " + String(repeating: "█", count: lit) + String(repeating: "░", count: barWidth - lit)
        }
        if channels > shown { text += " +\(channels - shown) ch" }
        return text
    }

    /// Writes `line` over the previous one.
    func redraw(_ line: String) {
        console.writeError("\r" + line + "\u{1B}[K")
    }

    /// Erases the line.
    func clear() {
        console.writeError("\r\u{1B}[K")
    }
}
