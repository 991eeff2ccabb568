import Dispatch
import Foundation
import Glibc
import SoundFiles
import Synchronization
import TestSupport
import Testing

@testable import Audio

/// The sound server's sources through libpulse, against real PulseAudio daemons: a "microphone"
/// of each test's own (`PulseTestMicrophone`: a null sink as its feed, a remapped source with a
/// description), listed, recorded through the capture engine, fed a tone with `paplay`,
/// unplugged, and a server killed and stalled mid-recording.
@Suite struct PulseSourceTests {
    let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2)

    /// On a daemon of the test's own (its defaults are changed): the microphone and its feed
    /// are listed with the server's descriptions, formats and marks, and the default source
    /// and sink are marked.
    @Test func theListingShowsTheSourcesAndSinksWithDescriptionsAndDefaults() throws {
        let daemon = try PulsePrivateDaemon()
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "USB Headset Mono")
        let defaults = try Tool.run(
            "/usr/bin/pactl", ["--server=\(daemon.address)", "set-default-source", microphone.source])
        try #require(defaults.status == 0, "\(defaults.standardError)")

        let listed = try PulseDevices.list(server: daemon.address)
        #expect(listed.serverName.hasPrefix("pulseaudio"), "\(listed.serverName)")
        let source = try #require(listed.sources.first { $0.name == microphone.source }, "\(listed.sources)")
        #expect(source.description == "USB Headset Mono")
        #expect(source.isDefault && !source.isMonitor)
        #expect(source.channels == 2 && source.sampleRate == 48_000, "\(source)")
        let monitor = try #require(listed.sources.first { $0.name == microphone.feed + ".monitor" }, "\(listed.sources)")
        #expect(monitor.description == "Monitor of Feed of USB Headset Mono")
        #expect(monitor.isMonitor && !monitor.isDefault)
        #expect(listed.sources.filter(\.isDefault).map(\.name) == [microphone.source])
        #expect(listed.defaultSource?.name == microphone.source)

        let feed = try #require(listed.sinks.first { $0.name == microphone.feed }, "\(listed.sinks)")
        #expect(feed.description == "Feed of USB Headset Mono" && !feed.isMonitor)
        // The daemon's own null sink stays its default sink.
        #expect(listed.sinks.filter(\.isDefault).map(\.name) == ["vsink"])
    }

    /// A server that is not there is an error at once, not a wait, and nothing is started.
    @Test func anAddressWithNoServerIsNoServer() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-no-pulse")
        let start = ContinuousClock.now
        #expect {
            _ = try PulseDevices.list(server: "unix:" + directory.file("native"))
        } throws: { error in
            (error as? PulseError)?.kind == .noServer
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    /// A stalled server (SIGSTOP) is given the listing's timeout, then taken as not answering.
    @Test func aStalledServerTimesOut() throws {
        let daemon = try PulsePrivateDaemon()
        daemon.suspend()
        defer { daemon.resume() }
        let start = ContinuousClock.now
        #expect {
            _ = try PulseDevices.list(server: daemon.address, timeout: .milliseconds(300))
        } throws: { error in
            (error as? PulseError)?.kind == .timedOut
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(2), "took \(elapsed)")
    }

    /// One second recorded from the microphone through the engine is one second of frames,
    /// taking about one second; with nothing played, silence.
    @Test func oneSecondRecordedFromTheMicrophoneIsOneSecondOfFrames() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let directory = try TemporaryDirectory(prefix: "voicememo-pulse-record")
        let output = directory.file("one-second.wav")
        let finished = DispatchSemaphore(value: 0)
        let recorder = try Recorder(
            url: output, settings: settings, input: .pulse(source: microphone.source, server: microphone.server),
            eventQueue: DispatchQueue(label: "test.events"),
            events: RecorderEvents(didFinishRecording: { _ in finished.signal() }))
        try recorder.prepareToRecord()
        let start = ContinuousClock.now
        try recorder.record(forDuration: 1)
        #expect(finished.wait(timeout: .now() + 10) == .success, "stops by itself")
        let elapsed = ContinuousClock.now - start
        recorder.stop()
        #expect(recorder.error == nil, "\(String(describing: recorder.error))")
        let recorded = try TestSignals.readInt16(output)
        #expect(recorded.info.frames == 48_000 && recorded.info.channels == 2, "\(recorded.info)")
        #expect(recorded.samples.allSatisfy { $0 == 0 }, "a microphone fed nothing records silence")
        // Paced by the server, not faster; the upper bound leaves room for the stream's start
        // and the file's close on a loaded machine.
        #expect(elapsed > .milliseconds(900) && elapsed < .seconds(5), "took \(elapsed)")
    }

    /// The stream runs at the rate and channels asked for, whatever the source's own (48 kHz
    /// stereo here): a second at 16 kHz mono is 16 000 frames, delivered in real time.
    @Test func theStreamRunsAtTheRecordingsRateAndChannels() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let format = StreamFormat(sampleRate: 16_000, channels: 1, sampleFormat: .int16)
        let source = try PulseCaptureSource(source: microphone.source, format: format, server: microphone.server)
        defer { source.close() }
        #expect(source.format == format)
        // The first reads include the stream's start; time from after them.
        _ = try captureAll(source, frames: 1600)
        let start = ContinuousClock.now
        let captured = try captureAll(source, frames: 16_000)
        let elapsed = ContinuousClock.now - start
        #expect(captured.bytes.count == 16_000 * 2)
        #expect(elapsed > .milliseconds(800) && elapsed < .milliseconds(1500), "a second at 16 kHz took \(elapsed)")
    }

    /// A 1 kHz tone at −12 dBFS played into the feed with paplay is heard in the capture at
    /// −12 dBFS, in both channels, at the rate asked for (not the server's 44.1 kHz default).
    @Test func aTonePlayedIntoTheFeedIsHeardAtItsLevel() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let directory = try TemporaryDirectory(prefix: "voicememo-pulse-tone")
        let tone = directory.file("tone.wav")
        try TestSignals.writeSines(to: tone, levels: [-12, -12], seconds: 3)
        let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .float32)
        let source = try PulseCaptureSource(source: microphone.source, format: format, server: microphone.server)
        defer { source.close() }
        #expect(source.name == "pulse:" + microphone.source)

        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--server=\(microphone.server)", "-d", microphone.feed, "--latency-msec=20", tone]
        player.standardError = FileHandle.nullDevice
        try player.run()
        defer {
            if player.isRunning { player.terminate() }
            player.waitUntilExit()
        }
        // Up to 2.5 s of capture; the tone's peak over its steady middle (after the stream starts).
        let captured = try captureAll(source, frames: 120_000).bytes
        let samples = captured.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let peaks = (0..<2).map { channel in
            stride(from: channel, to: samples.count, by: 2).map { abs(samples[$0]) }.max() ?? 0
        }
        for peak in peaks {
            let level = 20 * log10(Double(peak))
            #expect(abs(level - -12) < 0.5, "the tone's peak is \(level) dBFS, not -12")
        }
    }

    /// A source the server does not have is refused before anything opens, as a settings
    /// error (a usage error on the command line) naming the sources it has.
    @Test func anUnknownSourceIsRefusedWithTheNamesTheServerHas() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
        #expect {
            _ = try InputSource.pulse(source: "nope", server: microphone.server).open(format: format, paced: true)
        } throws: { error in
            guard let error = error as? RecorderError, case .pulse(let cause)? = error.cause else { return false }
            return error.kind == .settings && cause.kind == .noSuchSource && error.message.contains("\"nope\"")
                && error.message.contains(microphone.source) && error.message.contains(microphone.feed + ".monitor")
        }
    }

    /// The microphone unplugged (its module unloaded) mid-recording ends the recording with an
    /// error naming the source and the server, rather than going on from another source; what
    /// was recorded before is kept.
    @Test func theMicrophoneUnpluggedMidRecordingEndsItAndKeepsWhatWasRecorded() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        try recordUntilTheInputEnds(from: .pulse(source: microphone.source, server: microphone.server)) {
            microphone.unplug()
        } expecting: { error in
            error.message.contains("\"\(microphone.source)\" was removed") && error.message.contains(microphone.server)
        }
    }

    /// With `.continueFromDefault`, the microphone unplugged mid-read does not end capture: the
    /// reads go on from the server's default source (the daemon's null sink's monitor), the
    /// time without audio is one overrun with its frames, and the switch is kept.
    @Test func theMicrophoneUnpluggedWithContinueGoesOnFromTheDefaultSource() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let source = try PulseCaptureSource(
            source: microphone.source, format: ALSATestDevices.stereo48k, server: microphone.server,
            whenLost: .continueFromDefault)
        defer { source.close() }
        let before = try captureAll(source, frames: 24_000)
        #expect(before.reads.allSatisfy { $0.overruns == 0 } && source.inputSwitches.isEmpty)
        microphone.unplug()
        let after = try captureAll(source, frames: 24_000)
        let switches = source.inputSwitches
        #expect(switches.count == 1, "\(switches)")
        let change = try #require(switches.first)
        #expect(change.lost == "pulse:\(microphone.source)" && change.continuedFrom == "pulse:vsink.monitor", "\(change)")
        #expect(change.afterFrames >= 24_000 && change.gapSeconds >= 0 && change.gapSeconds < 2, "\(change)")
        #expect(after.reads.map(\.overruns).reduce(0, +) == 1, "\(after.reads.filter { $0.overruns > 0 })")
        let lost = after.reads.map(\.lostFrames).reduce(0, +)
        #expect(abs(Double(lost) / 48_000 - change.gapSeconds) < 0.01, "the gap's frames: \(lost), \(change)")
    }

    /// The server stalled (SIGSTOP) just after it removed the microphone: the reads while the
    /// default source's stream cannot start come back empty after their wait (a stop is never
    /// held), and once the start has had its 5 s the removal ends capture as it would have.
    @Test func aStalledServerDuringTheSwitchHoldsNoReadAndEndsItAfterTheStartsLimit() throws {
        let daemon = try PulsePrivateDaemon()
        defer { daemon.resume() }
        let microphone = try PulseTestMicrophone(server: daemon.address, description: "USB Headset Mono")
        let source = try PulseCaptureSource(
            source: microphone.source, format: ALSATestDevices.stereo48k, server: daemon.address,
            whenLost: .continueFromDefault)
        defer { source.close() }
        _ = try captureAll(source, frames: 4800)
        microphone.unplug()
        daemon.suspend()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4800 * 4, alignment: 16)
        defer { buffer.deallocate() }
        let start = ContinuousClock.now
        var longestRead: Duration = .zero
        var ending: CaptureError?
        while ending == nil, ContinuousClock.now - start < .seconds(15) {
            let before = ContinuousClock.now
            do {
                _ = try source.read(into: buffer, frames: 4800)
            } catch {
                ending = error
            }
            longestRead = max(longestRead, ContinuousClock.now - before)
        }
        let elapsed = ContinuousClock.now - start
        daemon.resume()
        let error = try #require(ending, "capture ends once the switch has had its time")
        #expect(error.kind == .disconnected && error.message.contains("\"\(microphone.source)\" was removed"), "\(error)")
        #expect(longestRead < .seconds(1), "the longest read took \(longestRead)")
        #expect(elapsed >= .seconds(4) && elapsed < .seconds(8), "ended after \(elapsed)")
        #expect(source.inputSwitches.isEmpty)
    }

    /// The server killed (SIGKILL) mid-recording ends the recording with an error naming the
    /// server; what was recorded before is kept.
    @Test func theServerKilledMidRecordingEndsItAndKeepsWhatWasRecorded() throws {
        let daemon = try PulsePrivateDaemon()
        try recordUntilTheInputEnds(from: .pulse(source: "default", server: daemon.address)) {
            kill(daemon.pid, SIGKILL)
        } expecting: { error in
            error.message.contains("went away") && error.message.contains(daemon.address.dropFirst(5))
        }
    }

    /// A stalled server (SIGSTOP) holds the read; a stop still ends the recording promptly
    /// and keeps what was delivered before the stall.
    @Test func aStalledServerDoesNotTrapTheStop() throws {
        let daemon = try PulsePrivateDaemon()
        defer { daemon.resume() }
        let directory = try TemporaryDirectory(prefix: "voicememo-pulse-stall")
        let output = directory.file("stalled.wav")
        let recorder = try Recorder(
            url: output, settings: settings, input: .pulse(source: "default", server: daemon.address),
            eventQueue: DispatchQueue(label: "test.events"))
        try recorder.record()
        try wait(for: "half a second recorded (\(recorder.recordedFrames) frames)", atMost: 10) {
            recorder.recordedFrames >= 24_000
        }
        daemon.suspend()
        usleep(300_000)
        let start = ContinuousClock.now
        recorder.stop()
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(2), "the stop took \(elapsed)")
        let kept = try TestSignals.readInt16(output)
        #expect(kept.info.frames >= 24_000 && kept.info.frames == Int64(recorder.recordedFrames), "\(kept.info)")
    }

    /// A read from a stalled server returns with no frames after its wait, instead of waiting
    /// for the server: the capture thread keeps getting back to its stop flag.
    @Test func aReadFromAStalledServerReturnsEmptyAfterItsWait() throws {
        let daemon = try PulsePrivateDaemon()
        defer { daemon.resume() }
        let source = try PulseCaptureSource(source: "default", format: ALSATestDevices.stereo48k, server: daemon.address)
        defer { source.close() }
        _ = try captureAll(source, frames: 4800)
        daemon.suspend()
        // What the server sent before it stopped is read first; then reads come back empty.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4800 * 4, alignment: 16)
        defer { buffer.deallocate() }
        var emptyReads = 0
        let start = ContinuousClock.now
        while emptyReads < 3, ContinuousClock.now - start < .seconds(10) {
            let before = ContinuousClock.now
            let read = try source.read(into: buffer, frames: 4800)
            if read.frames == 0 {
                emptyReads += 1
                let waited = ContinuousClock.now - before
                #expect(waited >= .milliseconds(90) && waited < .seconds(1), "an empty read took \(waited)")
            }
        }
        #expect(emptyReads == 3)
    }

    /// Records from `input`, does `interruption` after about half a second, and checks that the
    /// recording ends by itself as `.disconnected` with a message `expected` accepts, keeping
    /// the frames recorded before.
    private func recordUntilTheInputEnds(
        from input: InputSource, interruption: () -> Void, expecting expected: (RecorderError) -> Bool
    ) throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-pulse-gone")
        let output = directory.file("kept.wav")
        let finished = DispatchSemaphore(value: 0)
        let recorder = try Recorder(
            url: output, settings: settings, input: input, eventQueue: DispatchQueue(label: "test.events"),
            events: RecorderEvents(didFinishRecording: { _ in finished.signal() }))
        try recorder.record()
        try wait(for: "half a second recorded (\(recorder.recordedFrames) frames)", atMost: 10) {
            recorder.recordedFrames >= 24_000
        }
        interruption()
        #expect(finished.wait(timeout: .now() + 10) == .success, "the recording ends by itself")
        recorder.stop()
        let error = try #require(recorder.error)
        #expect(error.kind == .disconnected, "\(error)")
        #expect(expected(error), "\(error.message)")
        let kept = try TestSignals.readInt16(output)
        #expect(kept.info.frames >= 24_000 && kept.info.frames == Int64(recorder.recordedFrames), "\(kept.info)")
    }
}
