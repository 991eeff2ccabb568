import Platform
import Testing

/// `VOICEMEMO_FRAME_LOG`'s lines: `SECONDS WORK PROMPT PEAK`, written by the app, read by the bench.
@Suite struct FrameLogLineTests {
    @Test func aLineCarriesTheTimeToTheNanosecondTheWorkThePromptAndThePeakToATenth() {
        let text = FrameLogLine.text(seconds: 4123, nanoseconds: 5_000_007, work: 2, prompt: true, peakDB: -6.04)
        #expect(text == "4123.005000007 2 1 -6.0\n")
        #expect(FrameLogLine.text(seconds: 7, nanoseconds: 999_999_999, work: 0, prompt: false, peakDB: -0.06)
            == "7.999999999 0 0 -0.1\n")
        #expect(FrameLogLine.text(seconds: 7, nanoseconds: 0, work: 0, prompt: false, peakDB: 0.04) == "7.000000000 0 0 0.0\n")
    }

    @Test func aWrittenLineReadsBack() throws {
        let text = FrameLogLine.text(seconds: 4123, nanoseconds: 250_000_000, work: 1, prompt: false, peakDB: -19.96)
        let line = try #require(FrameLogLine(text.dropLast()))
        #expect(line == FrameLogLine(time: 4123.25, work: 1, prompt: false, peakDB: -20))
    }

    @Test func silenceUnderTheFloorAndNaNAreWrittenAsTheFloor() {
        #expect(FrameLogLine.text(seconds: 1, nanoseconds: 0, work: 0, prompt: false, peakDB: -.infinity) == "1.000000000 0 0 -160.0\n")
        #expect(FrameLogLine.text(seconds: 1, nanoseconds: 0, work: 0, prompt: false, peakDB: .nan) == "1.000000000 0 0 -160.0\n")
        #expect(FrameLogLine.text(seconds: 1, nanoseconds: 0, work: 0, prompt: false, peakDB: -200) == "1.000000000 0 0 -160.0\n")
    }

    @Test func aLineWithoutAPeakReadsAsTheFloorAndALineWithoutTheFirstThreeFieldsNotAtAll() {
        #expect(FrameLogLine("12.5 0 1") == FrameLogLine(time: 12.5, work: 0, prompt: true, peakDB: -160))
        #expect(FrameLogLine("12.5 0 0 loud") == FrameLogLine(time: 12.5, work: 0, prompt: false, peakDB: -160))
        #expect(FrameLogLine("12.5 0") == nil)
        #expect(FrameLogLine("later 0 0 -3.0") == nil)
        #expect(FrameLogLine("") == nil)
    }

    @Test func aLogReadsLineByLineSkippingWhatDoesNotParse() {
        let lines = FrameLogLine.lines(of: "1.0 0 0 -160.0\ncut sho\n1.5 1 0 -12.5\n")
        #expect(lines.map(\.time) == [1.0, 1.5])
        #expect(lines.map(\.peakDB) == [-160, -12.5])
    }

    @Test func theFirstFrameShowingALevelIsTheFirstAfterTheMomentAtOrAboveIt() throws {
        let frames = FrameLogLine.lines(of: """
            10.000 0 0 -5.0
            10.033 0 0 -160.0
            10.066 0 0 -45.2
            10.100 0 0 -20.0
            10.133 0 0 -6.0
            10.166 0 0 -160.0
            """)
        // The loud frame before the moment does not count; −20.0 itself is at the level.
        let first = try #require(FrameLogLine.first(in: frames, after: 10.01, atLeast: -20))
        #expect(first.time == 10.100)
        #expect(FrameLogLine.first(in: frames, after: 10.01, atLeast: -10)?.time == 10.133)
        // A frame at or after `before` is not looked at: that is the next sound's.
        #expect(FrameLogLine.first(in: frames, after: 10.01, before: 10.133, atLeast: -10) == nil)
        #expect(FrameLogLine.first(in: frames, after: 10.2, atLeast: -100) == nil)
    }
}
