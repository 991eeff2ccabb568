import Dispatch
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// A recorder attached to an engine its owner runs (the app's way: one open input,
/// successive memos recorded from it, the meter never interrupted).
@Suite struct RecorderAttachedTests {
    static let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
    static let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2)
    static let tone = InputSource.tone(frequency: 440, peakDBFS: -12)

    @Test func settingsThatDisagreeWithTheEngineAreRefused() throws {
        let engine = CaptureEngine(source: try ToneSource(frequency: 440, peakDBFS: -12, format: Self.format, paced: false))
        let settings = RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 44_100, channels: 2)
        #expect(throws: RecorderError.self) {
            _ = try Recorder(url: "/tmp/never.wav", settings: settings, engine: engine, input: Self.tone)
        }
        do {
            _ = try Recorder(url: "/tmp/never.wav", settings: settings, engine: engine, input: Self.tone)
        } catch {
            #expect(error.kind == .settings)
            #expect(error.message.contains("44100"))
        }
    }
}
