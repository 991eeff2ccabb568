import TestSupport
@testable import VoiceActivation
import Dispatch
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// `TakeReplay` without a sound card: a cancelled replay ignores nothing. (A device that cannot
/// be opened is `RealTimeTests`' `TakeReplayTests`; playing in real time, pitched, is
/// `VoxReplayTests` and `AppTmuxVoiceReplayTests`, through PulseAudio.)
@Suite struct TakeReplayTests {
    @Test func aCancelledReplayPlaysNothingAndIgnoresNothing() throws {
        let (recorder, engine) = try TakeReplayFixture.recorder()
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

}
