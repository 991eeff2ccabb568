@testable import VoiceActivation
import Dispatch
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// `TakeReplay` without a sound card: a cancelled replay ignores nothing, and one whose device
/// cannot be opened throws with the input heard again, after the echo tail. (Playing in real
/// time, pitched, is `VoxReplayTests` and `AppTmuxVoiceReplayTests`, through PulseAudio.)
@Suite struct TakeReplayTests {
    private func recorder() throws -> (VoiceActivatedRecorder, CaptureEngine) {
        let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
        let engine = CaptureEngine(source: try ToneSource(frequency: 440, peakDBFS: -60, format: format))
        let recorder = try VoiceActivatedRecorder(
            settings: VoiceActivationSettings(hangTime: 2, listensForSpeech: false),
            recordingSettings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2),
            engine: engine,
            events: VoiceActivationEvents(
                destination: { _ in TakeDestination(url: "/nonexistent/take.wav") }, takeDidFinish: { _ in }))
        engine.start()
        return (recorder, engine)
    }

    @Test func aCancelledReplayPlaysNothingAndIgnoresNothing() throws {
        let (recorder, engine) = try recorder()
        defer { recorder.stop(); engine.stop() }
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("take.wav", seconds: 1, peak: 0.5, format: .wav)
        let replay = TakeReplay(device: "null")
        #expect(try replay.play(file) == false, "no recorder attached: nothing to ignore for")
        replay.attach(recorder)
        replay.cancel()
        #expect(replay.isInterrupted)
        let started = DispatchTime.now()
        #expect(try replay.play(file, pitchSemitones: 7) == false)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        #expect(seconds < TakeReplay.echoTail, "returns at once, without the echo tail: \(seconds) s")
        #expect(!recorder.isIgnoringInput)
    }

    @Test func aDeviceThatCannotOpenThrowsAndTheInputIsHeardAgainAfterTheTail() throws {
        let (recorder, engine) = try recorder()
        defer { recorder.stop(); engine.stop() }
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("take.wav", seconds: 1, peak: 0.5, format: .wav)
        let replay = TakeReplay(device: "vm_no_such_device")
        replay.attach(recorder)
        let started = DispatchTime.now()
        #expect(throws: PlayerError.self) { try replay.play(file) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        #expect(seconds >= TakeReplay.echoTail, "the tail is kept ignored even then: \(seconds) s")
        #expect(!recorder.isIgnoringInput, "listening goes on")
    }
}
