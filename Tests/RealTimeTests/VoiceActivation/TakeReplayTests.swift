import TestSupport
@testable import VoiceActivation
import Dispatch
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// `TakeReplay` without a sound card, in real time: one whose device cannot be opened throws,
/// with the input heard again after the echo tail (0.5 s).
@Suite struct TakeReplayTests {
    @Test func aDeviceThatCannotOpenThrowsAndTheInputIsHeardAgainAfterTheTail() throws {
        let (recorder, engine) = try TakeReplayFixture.recorder()
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
