import Foundation
import TestSupport
import Testing

/// `voicememo record --echo-cancel` on a meeting against PulseAudio: a room of the test's own
/// (`PulseTestRoom`) whose microphone hears the desktop's speech again, 10 dB down and 10 ms
/// late (loudspeakers heard by the microphone), and then a near-end voice alone. Two meetings
/// of the same sound at once, one with echo cancelling and one without: the echo in the
/// microphone's channel is at least 15 dB lower with it, the near-end voice within 3 dB of its
/// level, and the desktop's channel is untouched. Bad input is worded.
@Suite struct MeetingEchoCancellingTests {
    static let rate = MeetingCommandTests.rate

    /// The far end's speech for 10 s (the desktop, and the microphone's echo of it), then 5 s of
    /// the near end's voice in the microphone alone, recorded for 16 s. The far end ends 10.0 s
    /// into a recording on an idle machine; beside the other shards it ended 10.6 and 11.1 s in,
    /// where a 14 s recording held less than the 3.5 s of near end measured. The room's file holds
    /// the echo already, so it plays with 200 ms of buffer, not the 20 ms that clicks need.
    @Test(arguments: [2, 4])
    func theDesktopsEchoIsCancelledOutOfTheMicrophoneAndTheNearEndKept(channels: Int) throws {
        let room = try PulseTestRoom()
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = room.server
        let source = "pulse:\(room.microphone)+pulse:\(room.desktop)"
        let record = "voicememo record --source \(source) --duration 16s --rate 48000 --channels \(channels) --format wav"
        let outcome = try sandbox.shell(
            Self.writingTheRoomsSound + MeetingCommandTests.playing([("room.wav", room.feed)], latencyMilliseconds: 200) + """
                \(record) --output plain.wav 2> plain.err & plain=$!
                \(record) --echo-cancel --output cancelled.wav 2> cancelled.err & cancelled=$!
                wait $plain || { cat plain.err; exit 1; }
                wait $cancelled || { cat cancelled.err; exit 2; }
                """, timeout: .seconds(90))
        try #require(outcome.status == 0, "\(outcome)")
        let plain = try MeetingCommandTests.channels(ofFile: sandbox.file("plain.wav"))
        let cancelled = try MeetingCommandTests.channels(ofFile: sandbox.file("cancelled.wav"))
        try #require(plain.count == channels && cancelled.count == channels)
        let plainStretches = try Self.stretches(ofDesktop: plain[channels / 2])
        let cancelledStretches = try Self.stretches(ofDesktop: cancelled[channels / 2])
        for microphone in 0..<channels / 2 {
            let echo = Self.rmsDB(plain[microphone][plainStretches.echo]) - Self.rmsDB(cancelled[microphone][cancelledStretches.echo])
            #expect(echo >= 15, "channel \(microphone + 1): the echo is \(echo) dB lower with echo cancelling")
            let nearEnd = Self.rmsDB(cancelled[microphone][cancelledStretches.nearEnd]) - Self.rmsDB(plain[microphone][plainStretches.nearEnd])
            #expect(abs(nearEnd) <= 3, "channel \(microphone + 1): the near end's voice is \(nearEnd) dB louder with echo cancelling")
            #expect(Self.rmsDB(plain[microphone][plainStretches.nearEnd]) > -40, "the near end's voice was recorded")
        }
        for desktop in channels / 2..<channels {
            let change = Self.rmsDB(cancelled[desktop][cancelledStretches.echo]) - Self.rmsDB(plain[desktop][plainStretches.echo])
            #expect(abs(change) <= 1, "channel \(desktop + 1): the desktop is \(change) dB louder with echo cancelling")
        }
    }

    /// `--echo-cancel` with any input but a meeting is a usage error saying why, and nothing is
    /// recorded.
    @Test(arguments: ["tone:440@-12", "pulse:default", "alsa:default"])
    func echoCancellingAnythingButAMeetingIsAUsageError(source: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("record", "--source", source, "--echo-cancel", "--duration", "1s")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("--echo-cancel takes what the desktop plays out of a meeting's microphone channels"), "\(outcome)")
        #expect(outcome.standardError.contains("not \(source)"), "\(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
    }

    /// A rate whose 10 ms is not a whole number of frames cannot be echo cancelled: a usage
    /// error naming the flag or the config key, the rate and the rates that can.
    @Test(arguments: [true, false])
    func echoCancellingAtARateWithoutWholeTenMillisecondBlocksIsAUsageError(byFlag: Bool) throws {
        let sandbox = try VoiceMemoSandbox()
        if !byFlag { try sandbox.writeConfig("echo_cancel = on\n") }
        let outcome = try sandbox.run(
            arguments: ["record", "--source", "meeting", "--rate", "22050", "--duration", "1s"] + (byFlag ? ["--echo-cancel"] : []))
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(byFlag ? "--echo-cancel: " : "echo_cancel = on: "), "\(outcome)")
        #expect(outcome.standardError.contains("at 22050 Hz are not a whole number of frames"), "\(outcome)")
        #expect(outcome.standardError.contains("44100, 48000"), "\(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
    }

    // MARK: - The room's sound and its analysis

    /// A script's start: `room.wav`, 15 s at 48 kHz in four channels: front (the microphone)
    /// the far end's speech at −10.5 dB (0.3) and 10 ms late, then from 10 s the near end's
    /// voice; rear (the desktop) the far end's speech for 10 s, then silence. espeak-ng speaks,
    /// sox mixes.
    static let writingTheRoomsSound = """
        espeak-ng -w far1.wav "Here is the agenda for today. First the budget for the spring, then the plans for \\
        the next quarter, and last the questions the team sent in before the meeting." || exit 80
        espeak-ng -v en+f3 -w near1.wav "I can hear you well. Let me share my screen and show the numbers from last week." || exit 81
        sox far1.wav -r 48000 far.wav norm -6 repeat 3 trim 0 10 pad 0 5 || exit 82
        sox far.wav echo.wav vol 0.3 delay 0.01 trim 0 15 || exit 83
        sox near1.wav -r 48000 near.wav norm -12 trim 0 5 pad 10 0 || exit 84
        sox -m -v 1 echo.wav -v 1 near.wav mic.wav || exit 85
        sox -M mic.wav mic.wav far.wav far.wav room.wav || exit 86

        """

    /// Where to measure in a recording, found from its desktop channel: the echo from 3 s in
    /// (the canceller has converged) to 0.2 s before the far end's last sound, and the near
    /// end from 0.5 s to 3.5 s after it.
    static func stretches(ofDesktop desktop: [Double]) throws -> (echo: Range<Int>, nearEnd: Range<Int>) {
        let farEndEnds = try #require(desktop.lastIndex { abs($0) > 1e-4 }, "the desktop played nothing")
        print("MeetingEchoCancellingTests: the far end ended \(Double(farEndEnds) / Double(rate)) s into a recording")
        try #require(farEndEnds >= 6 * rate, "the far end ended \(Double(farEndEnds) / Double(rate)) s in")
        try #require(farEndEnds + 7 * rate / 2 <= desktop.count, "the far end ended \(Double(farEndEnds) / Double(rate)) s in")
        return (3 * rate..<farEndEnds - rate / 5, farEndEnds + rate / 2..<farEndEnds + 7 * rate / 2)
    }

    /// The RMS level of `samples`, in dBFS (a full-scale square wave is 0 dB).
    static func rmsDB(_ samples: ArraySlice<Double>) -> Double {
        let sum = samples.reduce(0) { $0 + $1 * $1 }
        return 10 * log10(max(sum / Double(max(samples.count, 1)), 1e-20))
    }
}
