import CALSA
import Glibc
import TestSupport
import Testing

@testable import Audio

/// What the play head counts as still queued when the device cannot say (`snd_pcm_delay`
/// failing): the pulse plugin answers EIO while its stream connects, and the play head must
/// not run ahead of what was heard by what was written.
@Suite struct PlaybackPositionTests {
    private func write(_ frames: Int, to output: PlaybackOutput) throws -> Int {
        let silence = [Int16](repeating: 0, count: frames * 2)
        return try silence.withUnsafeBytes { try output.write(from: $0.baseAddress!, frames: frames, stopRequested: { false }) }
    }

    @Test func aPreparedDeviceThatCannotTellHoldsEverythingWrittenSinceItWasReady() throws {
        let devices = try ALSATestDevices(frames: 16)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.delay: [1: -Int(EIO), 2: -Int(EIO), 3: -Int(EIO), 4: -Int(EIO)]])
        let output = try PlaybackOutput.open(
            device: ALSATestDevices.playback, format: ALSATestDevices.stereo48k,
            configFile: devices.configFile, operations: operations)
        defer { output.close() }
        let frames = output.bufferFrames / 4
        // The test device plays at once; a stream still connecting is prepared.
        operations.reportState(SND_PCM_STATE_PREPARED)
        #expect(try write(frames, to: output) == frames)
        #expect(output.queuedFrames() == frames)
        #expect(try write(frames, to: output) == frames)
        #expect(output.queuedFrames() == 2 * frames)
        // Never more than the device holds.
        for _ in 0..<4 { _ = try write(frames, to: output) }
        #expect(output.queuedFrames() == output.bufferFrames)
        // Made ready again (a seek): nothing of the earlier frames is queued.
        try output.discardQueued()
        #expect(output.queuedFrames() == 0)
        // After an underrun nothing is queued, whatever was written.
        _ = try write(frames, to: output)
        operations.reportState(SND_PCM_STATE_XRUN)
        #expect(output.queuedFrames() == 0)
        operations.reportState(nil)
        #expect(operations.count(.delay) == 5)
    }
}
