import TestSupport
import Foundation
import Glibc
import Testing

@testable import Audio

/// Playback into the file-backed test device: what was written must land in the file.
@Suite struct ALSAPlaybackTests {
    private func play(_ samples: [Int16], to sink: ALSAPlaybackSink, chunk: Int = 1000) throws {
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var frame = 0
            let frames = samples.count / 2
            while frame < frames {
                let count = min(chunk, frames - frame)
                try sink.write(from: base + frame * 4, frames: count)
                frame += count
            }
        }
        try sink.drain()
        sink.close()
    }

    @Test func playedFramesReachTheFileExactly() throws {
        let devices = try ALSATestDevices(frames: 48_000)
        defer { devices.remove() }
        let sink = try ALSAPlaybackSink(
            device: ALSATestDevices.playback, format: ALSATestDevices.stereo48k, configFile: devices.configFile)
        #expect(sink.name == "alsa:voicememo_playback")
        try play(devices.samples, to: sink)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: devices.playbackFile)))
        #expect(firstDifference(written, devices.captureBytes(frames: 48_000)) == "")
        #expect(sink.underruns == 0)
    }

    @Test func forcedUnderrunIsRecoveredWithoutLosingFrames() throws {
        let devices = try ALSATestDevices(frames: 10_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.writeInterleaved: [3: Int(-EPIPE)]])
        let pcm = try ALSAPCM(
            device: ALSATestDevices.playback, stream: .playback, configFile: devices.configFile, operations: operations)
        let sink = try ALSAPlaybackSink(pcm: pcm, format: ALSATestDevices.stereo48k)
        try play(devices.samples, to: sink)
        #expect(sink.underruns == 1)
        #expect(operations.count(.prepare) == 1)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: devices.playbackFile)))
        #expect(firstDifference(written, devices.captureBytes(frames: 10_000)) == "")
    }

    @Test func vanishedPlaybackDeviceThrows() throws {
        let devices = try ALSATestDevices(frames: 10_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.writeInterleaved: [1: Int(-ENODEV)]])
        let pcm = try ALSAPCM(
            device: ALSATestDevices.playback, stream: .playback, configFile: devices.configFile, operations: operations)
        let sink = try ALSAPlaybackSink(pcm: pcm, format: ALSATestDevices.stereo48k)
        defer { sink.close() }
        let error = #expect(throws: ALSAError.self) { try play(devices.samples, to: sink) }
        #expect(error == .noDevice)
        #expect(error?.description == "cannot write to playback device \"voicememo_playback\": the device was disconnected")
    }
}
