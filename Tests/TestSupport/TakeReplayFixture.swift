import SoundFiles

import Audio
import VoiceActivation

/// What a take's replay is attached to: a voice-activated recorder on a quiet tone (−60 dBFS,
/// so it never starts a take) whose takes would go nowhere, and its running engine.
public enum TakeReplayFixture {
    public static func recorder() throws -> (VoiceActivatedRecorder, CaptureEngine) {
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
}
