import Audio
import Metering

/// The one live status line `play` keeps on a terminal's stderr: state, elapsed /
/// total, a level bar per channel (average, through the MeterTable) and the peak ("<-60"
/// below the bars' floor); paused, what resumes instead (nothing is measured then: the
/// line said "peak -160.0 dB").
struct PlayLiveLine {
    private let bars: LevelBars

    init(console: Console, channels: Int) {
        bars = LevelBars(console: console, channels: channels)
    }

    func show(player: Player) {
        var line = player.isPlaying ? "▶ " : "❚❚ "
        line += DisplayFormat.elapsedTime(seconds: player.currentTime)
        line += " / " + DisplayFormat.elapsedTime(seconds: player.duration)
        let adjustments = player.adjustments
        if adjustments.speed != 1 { line += "  " + Self.speedText(adjustments.speed) }
        if adjustments.pitchSemitones != 0 { line += String(format: "  %+.0f st", adjustments.pitchSemitones) }
        if adjustments.volume != 1 { line += "  vol \(Int((adjustments.volume * 100).rounded())) %" }
        if player.clippedSamples > 0 { line += "  CLIP" }
        if player.isPlaying {
            line += bars.bars { player.averagePower(forChannel: $0) }
            let peak = (0..<bars.channels).map { player.peakPower(forChannel: $0) }.max() ?? Decibels.floor
            line += "  peak " + DisplayFormat.meterReading(peak, floor: bars.floor) + " dB"
        } else {
            line += "  paused (space resumes)"
        }
        let underruns = player.underruns
        if underruns > 0 { line += "  underruns \(underruns)" }
        bars.redraw(line)
    }

    /// `1.5×`, `2×`, `0.75×`.
    static func speedText(_ speed: Double) -> String {
        var text = String(format: "%.2f", speed)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "×"
    }

    func clear() {
        bars.clear()
    }
}
