import Audio
import Metering

/// The one live status line `record` keeps on a terminal's stderr (like sox -S):
/// elapsed time, a level bar per channel, the peak so far and overruns; while the input
/// delivers nothing (`InputDiagnosis.noAudio`), that message instead of the bars.
struct LiveLine {
    private let bars: LevelBars

    init(console: Console, channels: Int) {
        bars = LevelBars(console: console, channels: channels)
    }

    /// - Parameter startsIn: seconds left of `--delay`, while the recording waits to start.
    /// - Parameter draft: `record --captions`' utterance in progress, at the end of the line.
    func show(recorder: Recorder, levels: Levels, peak: [Float], startsIn: Double? = nil, draft: String = "") {
        bars.redraw(
            Self.text(
                isRecording: recorder.isRecording, seconds: recorder.currentTime,
                bars: bars.bars { levels.average[$0] }, peak: peak.max() ?? -160,
                clips: recorder.totalClipCount, overruns: recorder.statistics.overruns,
                secondsWithoutAudio: recorder.secondsWithoutAudio, startsIn: startsIn) + draft)
    }

    /// The line: "● REC 00:00:03  ██████░░░░░░  ████░░░░░░░░  peak -6.0 dB  clips 0", or
    /// "● REC 00:00:03  No audio from the input for 2 s: …" while the input is stalled, or
    /// "  Starts in 00:00:05  ██░░…" while `--delay` counts down (whole seconds, rounded up, so
    /// the last second reads 00:00:01, not 00:00:00).
    static func text(
        isRecording: Bool, seconds: Double, bars: String, peak: Float, clips: Int, overruns: Int,
        secondsWithoutAudio: Double, startsIn: Double? = nil
    ) -> String {
        var line = isRecording ? "● REC " : "  ... "
        if !isRecording, let startsIn, startsIn > 0 {
            line = "  Starts in " + DisplayFormat.elapsedTime(seconds: startsIn.rounded(.up))
        } else {
            line += DisplayFormat.elapsedTime(seconds: seconds)
        }
        if secondsWithoutAudio >= InputDiagnosis.noAudioAfter {
            return line + "  " + InputDiagnosis.noAudio.message
        }
        line += bars
        line += "  peak " + DisplayFormat.meterReading(peak, floor: MeterTable().minDecibels) + " dB"
        line += "  clips \(clips)"
        if overruns > 0 { line += "  overruns \(overruns)" }
        return line
    }

    func clear() {
        bars.clear()
    }
}
