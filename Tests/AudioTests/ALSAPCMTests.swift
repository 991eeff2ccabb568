import TestSupport
import Glibc
import Testing

@testable import Audio

/// `ALSAPCM`'s public calls against the real file-fed device.
@Suite struct ALSAPCMTests {
    @Test func lifecycleFollowsALSAStates() throws {
        let devices = try ALSATestDevices(frames: 20_000)
        defer { devices.remove() }
        let pcm = try ALSAPCM(device: ALSATestDevices.capture, stream: .capture, configFile: devices.configFile)
        #expect(pcm.isOpen)
        #expect(pcm.state == .open)
        #expect(pcm.setup == nil)

        let setup = try pcm.configure(ALSATestDevices.stereo48k)
        #expect(pcm.setup == setup)
        #expect(pcm.state == .prepared)

        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1200 * 4, alignment: 16)
        defer { buffer.deallocate() }
        #expect(try pcm.readInterleaved(into: buffer, frames: 1200) == 1200)
        #expect(pcm.state == .running)
        #expect(try pcm.delay() >= 0)

        try pcm.drop()
        #expect(pcm.state == .setup)
        try pcm.prepare()
        #expect(pcm.state == .prepared)
        try pcm.recover(from: .brokenPipe)
        #expect(pcm.state == .prepared)
        #expect(throws: ALSAError.io) { try pcm.recover(from: .io) }

        pcm.close()
        pcm.close()
        #expect(!pcm.isOpen)
        #expect(pcm.state == .closed)
        let error = #expect(throws: ALSAError.self) { try pcm.readInterleaved(into: buffer, frames: 1) }
        #expect(error?.rawValue == -EBADFD)
        #expect(throws: ALSAError.self) { try pcm.prepare() }
    }

    @Test func customPeriodAndBuffer() throws {
        let devices = try ALSATestDevices(frames: 100)
        defer { devices.remove() }
        let pcm = try ALSAPCM(device: ALSATestDevices.capture, stream: .capture, configFile: devices.configFile)
        let setup = try pcm.configure(ALSATestDevices.stereo48k, periodMicroseconds: 50_000, bufferMicroseconds: 400_000)
        #expect(setup.periodFrames == 2400)
        #expect(setup.bufferFrames == 19_200)
        #expect(setup.description == "48000 Hz, 2 ch, int16, period 2400 frames, buffer 19200 frames")
    }
}
