import Foundation
import TestSupport
import Testing

/// `voicememo record --source pulse:MIC+pulse:DESKTOP.monitor` and `--source meeting` against
/// PulseAudio: a "microphone" of each test's own (`PulseTestMicrophone`) and a null sink of its
/// own as the desktop, whose monitor records what it plays. Each channel holds its own input,
/// a click played into both at once lines up within 10 ms, and bad input is worded.
@Suite struct MeetingCommandTests {
    /// The microphone's tone and the desktop's, far enough apart to tell in every channel.
    static let microphoneHz = 500.0
    static let desktopHz = 1500.0
    static let rate = 48_000

    /// A tone into the microphone's feed and another into the desktop: with 2 channels the
    /// first holds the microphone's tone, the second the desktop's; with 4 the first two and the
    /// last two. Each channel's own tone is at least 30 dB above the other's. A desktop that runs
    /// at 44.1 kHz is resampled to the recording's 48 kHz by the server.
    @Test(arguments: [(2, 48_000), (4, 48_000), (2, 44_100)])
    func eachChannelHoldsItsOwnInput(channels: Int, desktopRate: Int) throws {
        let microphone = try PulseTestMicrophone(description: "Meeting Mic")
        let desktop = try PulseTestSink.load(on: microphone.server, rate: desktopRate)
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        try Self.writeTones(in: sandbox)
        let outcome = try sandbox.shell(
            Self.playing([("mic.wav", microphone.feed), ("desk.wav", desktop.name)]) + """
                voicememo record --source pulse:\(microphone.source)+pulse:\(desktop.monitor) --duration 2s \\
                    --format wav --rate 48000 --channels \(channels) --title Meeting
                """, timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let recorded = try Self.channels(ofOnlyMemoIn: sandbox)
        try #require(recorded.count == channels, "\(recorded.count) channels")
        #expect(recorded.allSatisfy { $0.count == 2 * Self.rate }, "\(recorded.map(\.count)) frames")
        for (index, samples) in recorded.enumerated() {
            let isMicrophone = index < channels / 2
            let tail = samples.suffix(Self.rate)
            let own = Self.power(tail, hertz: isMicrophone ? Self.microphoneHz : Self.desktopHz)
            let other = Self.power(tail, hertz: isMicrophone ? Self.desktopHz : Self.microphoneHz)
            #expect(own - other >= 30, "channel \(index + 1): its own tone \(own) dB, the other's \(other) dB")
            #expect(own > -40, "channel \(index + 1) is near silent: \(own) dB")
        }
    }

    /// `meeting` records the server's default source and what its default sink plays: on a
    /// daemon of the test's own, whose defaults the test sets; `meter` names its channels M and D.
    @Test func meetingRecordsTheDefaultSourceAndWhatTheDesktopPlays() throws {
        let daemon = try PulsePrivateDaemon()
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "Meeting Mic")
        let desktop = try PulseTestSink.load(on: daemon.address)
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = daemon.address
        try Self.writeTones(in: sandbox)
        let outcome = try sandbox.shell(
            """
            pactl set-default-source \(microphone.source) && pactl set-default-sink \(desktop.name) || exit 90
            """ + Self.playing([("mic.wav", microphone.feed), ("desk.wav", desktop.name)]) + """
                voicememo record --source meeting --duration 2s --format wav --title Meeting || exit 1
                voicememo meter --source meeting --duration 1s > meter.txt
                """, timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let meter = try String(contentsOfFile: sandbox.file("meter.txt"), encoding: .utf8)
        #expect(meter.contains("  M rms ") && meter.contains("   D rms "), "meter names the channels: \(meter)")
        let recorded = try Self.channels(ofOnlyMemoIn: sandbox)
        try #require(recorded.count == 2)
        let microphoneSide = recorded[0].suffix(Self.rate)
        let desktopSide = recorded[1].suffix(Self.rate)
        #expect(Self.power(microphoneSide, hertz: Self.microphoneHz) - Self.power(microphoneSide, hertz: Self.desktopHz) >= 30)
        #expect(Self.power(desktopSide, hertz: Self.desktopHz) - Self.power(desktopSide, hertz: Self.microphoneHz) >= 30)
    }

    /// Clicks played into the microphone's feed and the desktop at once (one combined sink
    /// over both) are within 10 ms of each other in the memo, by cross-correlation around each.
    @Test func aClickPlayedIntoBothAtOnceLinesUpWithinTenMilliseconds() throws {
        let microphone = try PulseTestMicrophone(description: "Meeting Mic")
        let desktop = try PulseTestServer.require().makeSink()
        let both = try PulseTestSink.load(on: microphone.server, combining: [microphone.feed, desktop.name])
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        // A 1 ms click every half second.
        try TestSignals.writeMonoWAV(to: sandbox.file("clicks.wav"), seconds: 20) { frame in
            frame % (Self.rate / 2) < Self.rate / 1000 ? 0.6 : 0
        }
        let outcome = try sandbox.shell(
            Self.playing([("clicks.wav", both.name)]) + """
                voicememo record --source pulse:\(microphone.source)+pulse:\(desktop.monitor) --duration 3s \\
                    --format wav --title Clicks
                """, timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let recorded = try Self.channels(ofOnlyMemoIn: sandbox)
        try #require(recorded.count == 2)
        let clicks = Self.onsets(recorded[0])
        #expect(clicks.count >= 4, "clicks heard at \(clicks)")
        let tolerance = Self.rate / 100
        for click in clicks {
            let lag = Self.lag(recorded[0], recorded[1], around: click, within: 2 * tolerance)
            #expect(abs(lag) <= tolerance, "the click at frame \(click) is \(lag) frames apart")
        }
    }

    /// A desktop that plays nothing records silence, not an error.
    @Test func aMonitorWithNothingPlayingRecordsSilence() throws {
        let microphone = try PulseTestMicrophone(description: "Meeting Mic")
        let desktop = try PulseTestServer.require().makeSink()
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let outcome = try sandbox.run(
            "record", "--source", "pulse:\(microphone.source)+pulse:\(desktop.monitor)", "--duration", "1s", "--format", "wav")
        #expect(outcome.status == 0, "\(outcome)")
        let recorded = try Self.channels(ofOnlyMemoIn: sandbox)
        try #require(recorded.count == 2)
        #expect(recorded[1].count == Self.rate)
        #expect(recorded[1].allSatisfy { $0 == 0 }, "the desktop's channel is not silent")
    }

    /// A source the server does not have, in either part: a usage error (status 2) naming it
    /// and the sources the server has, and no memo.
    @Test(arguments: [true, false])
    func anUnknownSourceInEitherPartIsAUsageErrorNamingTheSources(first: Bool) throws {
        let microphone = try PulseTestMicrophone(description: "Meeting Mic")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let parts = ["pulse:nope", "pulse:\(microphone.source)"]
        let source = (first ? parts : parts.reversed()).joined(separator: "+")
        let outcome = try sandbox.run("record", "--source", source, "--duration", "1s")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("no source \"nope\""), "\(outcome)")
        #expect(outcome.standardError.contains(microphone.source), "\(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
    }

    /// A joined input records 2 channels or 4: any other count is a usage error saying so.
    @Test func aJoinedInputOfOtherThanTwoOrFourChannelsIsAUsageError() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("record", "--source", "meeting", "--channels", "1", "--duration", "1s")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("records 2 channels"), "\(outcome)")
        #expect(outcome.standardError.contains("--channels 4"), "\(outcome)")
    }

    /// The microphone unplugged mid-meeting ends the recording with a message naming it, and
    /// what was recorded is kept.
    @Test func anInputRemovedMidMeetingEndsItNamingTheInputAndKeepsTheAudio() throws {
        let microphone = try PulseTestMicrophone(description: "Meeting Mic")
        let desktop = try PulseTestServer.require().makeSink()
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = sandbox.file("events")
        let recording = try sandbox.shell(
            Self.meetingRecordingOneSecondIn(source: "pulse:\(microphone.source)+pulse:\(desktop.monitor)", title: "Unplugged") + """
            module=$(pactl list sources | awk '$1 == "Name:" { name = $2 } $1 == "Owner" && name == "\(microphone.source)" { print $3 }')
            pactl unload-module "$module" || { kill $pid; exit 92; }
            wait $pid; echo "status=$?"; cat record.err
            """, timeout: .seconds(60))
        #expect(recording.standardOutput.contains("status=1"), "\(recording)")
        #expect(recording.standardOutput.contains("\"\(microphone.source)\" was removed"), "\(recording)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect((memo["frames"] as? Int ?? 0) >= Self.rate, "\(memo)")
    }

    /// The desktop's sink suspended mid-meeting (its monitor delivers nothing while the
    /// microphone goes on): after 2 s the recording ends naming the input that stalled, and
    /// what was recorded is kept.
    @Test func anInputThatStallsEndsTheMeetingNamingItAndKeepsTheAudio() throws {
        let microphone = try PulseTestMicrophone(description: "Meeting Mic")
        let desktop = try PulseTestServer.require().makeSink()
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = sandbox.file("events")
        let recording = try sandbox.shell(
            Self.meetingRecordingOneSecondIn(source: "pulse:\(microphone.source)+pulse:\(desktop.monitor)", title: "Stalled") + """
            pactl suspend-sink \(desktop.name) 1 || { kill $pid; exit 92; }
            ended() { ! kill -0 $pid 2>/dev/null; }
            wait_until 15 "the recording to end" ended || { kill $pid; exit 93; }
            wait $pid; echo "status=$?"; cat record.err
            pactl suspend-sink \(desktop.name) 0
            """, timeout: .seconds(60))
        #expect(recording.standardOutput.contains("status=1"), "\(recording)")
        #expect(
            recording.standardOutput.contains("\"\(desktop.monitor)\" of the sound server at")
                && recording.standardOutput.contains("delivered nothing for 2 s while \"\(microphone.source)\" did"), "\(recording)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect((memo["frames"] as? Int ?? 0) >= Self.rate, "\(memo)")
    }

    /// The server killed mid-meeting ends the recording with a message saying it went away,
    /// and what was recorded is kept.
    @Test func aServerThatGoesAwayMidMeetingEndsItSayingSoAndKeepsTheAudio() throws {
        let daemon = try PulsePrivateDaemon()
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "Meeting Mic")
        let desktop = try PulseTestSink.load(on: daemon.address)
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = daemon.address
        sandbox.environment["VOICEMEMO_EVENT_LOG"] = sandbox.file("events")
        let recording = try sandbox.shell(
            Self.meetingRecordingOneSecondIn(source: "pulse:\(microphone.source)+pulse:\(desktop.monitor)", title: "Gone") + """
            kill -9 \(daemon.pid)
            wait $pid; echo "status=$?"; cat record.err
            """, timeout: .seconds(60))
        #expect(recording.standardOutput.contains("status=1"), "\(recording)")
        #expect(recording.standardOutput.contains("went away while recording"), "\(recording)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect((memo["frames"] as? Int ?? 0) >= Self.rate, "\(memo)")
    }

    /// A script's start: a 30 s meeting recorded in the background (`$pid`, its standard error in
    /// `record.err`), waited for until the event log (`events`) says a second is recorded.
    static func meetingRecordingOneSecondIn(source: String, title: String) -> String {
        """
        voicememo record --source \(source) --duration 30s --format wav --title \(title) 2> record.err & pid=$!
        recorded_a_second() { awk '$1 == "recorded" && $2 >= 48000 { found = 1 } END { exit !found }' events 2>/dev/null; }
        wait_until 20 "a second recorded" recorded_a_second || { kill $pid; exit 91; }

        """
    }

    // MARK: - Signals and their analysis

    /// `mic.wav` and `desk.wav`: 20 s of the microphone's tone and of the desktop's.
    static func writeTones(in sandbox: VoiceMemoSandbox) throws {
        for (file, hertz) in [("mic.wav", Self.microphoneHz), ("desk.wav", Self.desktopHz)] {
            try TestSignals.writeMonoWAV(to: sandbox.file(file), seconds: 20) { frame in
                0.5 * sin(2 * .pi * hertz * Double(frame) / Double(Self.rate))
            }
        }
    }

    /// A script's start: `paplay` plays each file into its sink with `latencyMilliseconds` of
    /// buffer, and the script waits until the server lists each as a stream, and stops them
    /// when it ends.
    static func playing(_ plays: [(file: String, sink: String)], latencyMilliseconds: Int = 20) -> String {
        var script = "players=\n"
        for play in plays {
            script += """
                paplay --latency-msec=\(latencyMilliseconds) -d \(play.sink) \(play.file) & players="$players $!"

                """
        }
        script += """
            trap 'kill $players 2>/dev/null' EXIT
            streams() { local n=0; for p in $players; do pactl list sink-inputs | grep -q "application.process.id = \\"$p\\"" && n=$((n + 1)); done; [ $n -eq \(plays.count) ]; }
            poll=0.1 wait_until 20 "paplay's streams" streams || exit 90

            """
        return script
    }

    /// The channels of the one memo in the sandbox's library, as samples from −1 to 1.
    static func channels(ofOnlyMemoIn sandbox: VoiceMemoSandbox) throws -> [[Double]] {
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path).filter { $0.hasSuffix(".wav") }
        try #require(files.count == 1, "memos: \(files)")
        return try channels(ofFile: sandbox.libraryDirectory.appendingPathComponent(files[0]).path)
    }

    /// The channels of the 16-bit sound file at `path`, as samples from −1 to 1.
    static func channels(ofFile path: String) throws -> [[Double]] {
        let (info, samples) = try TestSignals.readInt16(path)
        let count = info.channels
        return (0..<count).map { channel in
            stride(from: channel, to: samples.count, by: count).map { Double(samples[$0]) / 32768 }
        }
    }

    /// The power of `samples` at `hertz` (Goertzel), in dB relative to a full-scale sine.
    static func power(_ samples: ArraySlice<Double>, hertz: Double) -> Double {
        let coefficient = 2 * cos(2 * .pi * hertz / Double(rate))
        var previous = 0.0
        var beforePrevious = 0.0
        for sample in samples {
            let current = sample + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        let amplitude = 2 * power.squareRoot() / Double(max(samples.count, 1))
        return 20 * log10(max(amplitude, 1e-12))
    }

    /// Where each click starts: the first sample above a fifth of full scale after a quarter
    /// second without one.
    static func onsets(_ samples: [Double]) -> [Int] {
        var found: [Int] = []
        for (index, sample) in samples.enumerated() where abs(sample) > 0.2 {
            if let last = found.last, index - last < rate / 4 { continue }
            found.append(index)
        }
        return found
    }

    /// The lag (in frames, positive when `second` is later) that best lines `second` up with
    /// `first` over 20 ms around `frame`, looked for within `range` frames either way.
    static func lag(_ first: [Double], _ second: [Double], around frame: Int, within range: Int) -> Int {
        let window = max(0, frame - rate / 200)..<min(first.count, frame + rate / 100)
        var best = (lag: 0, score: -Double.infinity)
        for lag in -range...range {
            var score = 0.0
            for index in window where second.indices.contains(index + lag) {
                score += first[index] * second[index + lag]
            }
            if score > best.score { best = (lag, score) }
        }
        return best.lag
    }
}
