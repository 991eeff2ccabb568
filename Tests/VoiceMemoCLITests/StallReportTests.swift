import Metering
import Testing

@testable import VoiceMemoCLI

/// How `meter --json` and `record`'s live line say that the input delivers nothing.
@Suite struct StallReportTests {
    @Test func meterJSONNamesTheStallAndHowLongItLasted() {
        #expect(
            DiagnosisText.json(.noAudio, secondsWithoutAudio: 2.345).serialized
                == #"{"kind": "no_audio", "seconds": 2.3, "message": "No audio from the input for 2 s: is the audio server running?"}"#)
        #expect(DiagnosisText.json(nil, secondsWithoutAudio: 9).serialized == "null", "no stall, no diagnosis")
        #expect(
            DiagnosisText.json(.silent, secondsWithoutAudio: 0).serialized.contains("\"seconds\"") == false,
            "only a stall carries its seconds")
    }

    /// Bad figures from a clock cannot make the field lie: a negative or absurd time is
    /// written as the engine gives it (the engine never reports less than 0), NaN as null.
    @Test func oddSecondsStayValidJSON() {
        #expect(DiagnosisText.json(.noAudio, secondsWithoutAudio: .nan).serialized.contains(#""seconds": null"#))
        #expect(DiagnosisText.json(.noAudio, secondsWithoutAudio: 1e9).serialized.contains(#""seconds": 1000000000"#))
    }

    @Test func meterTextSaysWhenTheStallBeginsAndEnds() {
        #expect(
            DiagnosisText.change(to: .noAudio, at: 3.5)
                == "   3.50 s  No audio from the input for 2 s: is the audio server running?")
        #expect(DiagnosisText.change(to: nil, at: 7) == "   7.00 s  The input looks fine again.")
    }

    @Test func recordsLiveLineShowsTheStallInsteadOfTheBars() {
        let flowing = LiveLine.text(
            isRecording: true, seconds: 3, bars: "  ██░░", peak: -6, clips: 0, overruns: 0, secondsWithoutAudio: 1.9)
        #expect(flowing.contains("██░░") && flowing.contains("peak") && !flowing.contains("No audio"))
        let stalled = LiveLine.text(
            isRecording: true, seconds: 3, bars: "  ██░░", peak: -6, clips: 0, overruns: 0, secondsWithoutAudio: 2)
        #expect(stalled == "● REC 00:00:03  No audio from the input for 2 s: is the audio server running?")
    }

    /// Silence reads below the bars' floor, as on the app's meter (it read
    /// "peak -160.0 dB", a figure that looks like a level).
    @Test func recordsLiveLineReadsSilenceBelowTheFloor() {
        let silent = LiveLine.text(
            isRecording: true, seconds: 3, bars: "  ░░░░", peak: -160, clips: 0, overruns: 0, secondsWithoutAudio: 0)
        #expect(silent.contains("peak <-60 dB") && !silent.contains("-160"), "\(silent)")
        let loud = LiveLine.text(
            isRecording: true, seconds: 3, bars: "  ██░░", peak: -6, clips: 0, overruns: 0, secondsWithoutAudio: 0)
        #expect(loud.contains("peak -6.0 dB"), "\(loud)")
    }

    @Test func recordsLiveLineCountsDownTheDelay() {
        func line(startsIn: Double?, recording: Bool = false) -> String {
            LiveLine.text(
                isRecording: recording, seconds: 0, bars: "  ██░░", peak: -6, clips: 0, overruns: 0,
                secondsWithoutAudio: 0, startsIn: startsIn)
        }
        #expect(line(startsIn: 4.2).hasPrefix("  Starts in 00:00:05  ██░░"), "\(line(startsIn: 4.2))")
        #expect(line(startsIn: 0.01).hasPrefix("  Starts in 00:00:01"))
        #expect(line(startsIn: 65).hasPrefix("  Starts in 00:01:05"))
        #expect(line(startsIn: 0).hasPrefix("  ... 00:00:00"), "the delay is over: the recording is starting")
        #expect(line(startsIn: 3, recording: true).hasPrefix("● REC 00:00:00"), "recording: the timer, not the countdown")
        #expect(line(startsIn: nil).hasPrefix("  ... 00:00:00"))
    }
}
