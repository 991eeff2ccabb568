import TestSupport
import Dispatch
import Foundation
import Glibc
import SoundFiles
import Synchronization
import Testing

@testable import Audio

/// A recording whose input device disappears (`-ENODEV` forced through the PCM seam on
/// real ALSA): it stops cleanly, keeps everything recorded, and says why.
@Suite struct RecorderDeviceFailureTests {
    @Test func unpluggedDeviceStopsTheRecordingAndKeepsTheFile() throws {
        let devices = try ALSATestDevices(frames: 400_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.readInterleaved: [12: Int(-ENODEV)]])
        let pcm = try ALSAPCM(
            device: ALSATestDevices.capture, stream: .capture, configFile: devices.configFile, operations: operations)
        let engine = CaptureEngine(source: try ALSACaptureSource(pcm: pcm, format: ALSATestDevices.stereo48k))
        let directory = try TemporaryDirectory(prefix: "voicememo-recorder")
        let path = directory.file("unplugged.wav")
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<(success: Bool?, error: RecorderError?)>((nil, nil))
        let recorder = try Recorder(
            url: path, settings: RecordingSettings(format: .wav, encoding: .pcm16, sampleRate: 48_000, channels: 2),
            engine: engine, input: .alsa(device: ALSATestDevices.capture),
            eventQueue: DispatchQueue(label: "test.events"),
            events: RecorderEvents(
                didFinishRecording: { ok in
                    outcome.withLock { $0.success = ok }
                    finished.signal()
                },
                encodeErrorDidOccur: { error in outcome.withLock { $0.error = error } }))
        try recorder.record()
        engine.start()
        #expect(finished.wait(timeout: .now() + 20) == .success, "the recording ends by itself")
        recorder.stop()
        engine.stop()

        let (success, error) = outcome.withLock { $0 }
        #expect(success == false)
        #expect(error?.kind == .disconnected)
        #expect(error?.message.contains("disconnected") == true, "\(String(describing: error))")
        #expect(recorder.error?.kind == .disconnected)

        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let frames = Int(reader.info.frames)
        #expect(frames > 0 && frames == recorder.recordedFrames, "everything captured before the unplug is kept")
        var kept = [Int16](repeating: 0, count: frames * 2)
        let read = try kept.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return try reader.read(into: base, frames: frames, as: .int16)
        }
        #expect(read == frames)
        #expect(Array(kept) == Array(devices.samples.prefix(frames * 2)), "bit for bit what the device delivered")
    }
}
