import TestSupport
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// Capture through real alsa-lib from the file-fed test device (no sound card needed).
@Suite struct ALSACaptureTests {
    @Test func captureIsBitExactWithTheFedFile() throws {
        let devices = try ALSATestDevices()
        defer { devices.remove() }
        let source = try ALSACaptureSource(
            device: ALSATestDevices.capture, format: ALSATestDevices.stereo48k, configFile: devices.configFile)
        defer { source.close() }
        #expect(source.format == ALSATestDevices.stereo48k)
        #expect(source.name == "alsa:voicememo_capture")

        let captured = try captureAll(source, frames: 144_000)
        #expect(captured.bytes.count == 144_000 * 4)
        #expect(firstDifference(captured.bytes, devices.captureBytes(frames: 144_000)) == "")
        #expect(captured.reads.allSatisfy { $0.overruns == 0 && $0.lostFrames == 0 })
    }

    @Test func negotiatesPeriodAndBufferNearTheRequest() throws {
        let devices = try ALSATestDevices(frames: 1000)
        defer { devices.remove() }
        let source = try ALSACaptureSource(
            device: ALSATestDevices.capture, format: ALSATestDevices.stereo48k, configFile: devices.configFile)
        defer { source.close() }
        // 25 ms and 200 ms at 48 kHz.
        #expect(source.setup.periodFrames == 1200)
        #expect(source.setup.bufferFrames == 9600)
    }

    @Test(.enabled(if: Tool.exists("/usr/bin/arecord"), "arecord (alsa-utils) is not installed"))
    func captureMatchesArecordByteForByte() throws {
        let devices = try ALSATestDevices()
        defer { devices.remove() }
        let arecordFile = devices.directory.appendingPathComponent("arecord.raw").path
        let run = try Tool.run(
            "/usr/bin/arecord",
            ["-q", "-D", ALSATestDevices.capture, "-f", "S16_LE", "-r", "48000", "-c", "2", "-d", "3", "-t", "raw", arecordFile],
            environment: ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(devices.configFile)"])
        #expect(run.status == 0, "arecord failed: \(run.standardError)")
        let fromArecord = try [UInt8](Data(contentsOf: URL(fileURLWithPath: arecordFile)))

        let source = try ALSACaptureSource(
            device: ALSATestDevices.capture, format: ALSATestDevices.stereo48k, configFile: devices.configFile)
        defer { source.close() }
        let ours = try captureAll(source, frames: 144_000).bytes
        #expect(fromArecord.count == 144_000 * 4)
        #expect(firstDifference(ours, fromArecord) == "")
    }

    @Test func int32RequestIsConvertedByPlug() throws {
        let devices = try ALSATestDevices(frames: 60_000)
        defer { devices.remove() }
        let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int32)
        let source = try ALSACaptureSource(device: ALSATestDevices.capture, format: format, configFile: devices.configFile)
        defer { source.close() }
        #expect(source.format == format)
        let bytes = try captureAll(source, frames: 48_000).bytes
        let values = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        #expect(values.count == 96_000)
        // S16 → S32 is a left shift by 16: the low half must be zero.
        #expect(values.allSatisfy { $0 & 0xFFFF == 0 })
        let narrowed = values.map { Int16(truncatingIfNeeded: $0 >> 16) }
        #expect(Array(narrowed.prefix(2048)) == Array(devices.samples.prefix(2048)))
        #expect(runsCopied(from: devices.samples, into: narrowed, channels: 2) != nil)
    }

    @Test func float32RequestIsConvertedByPlug() throws {
        let devices = try ALSATestDevices(frames: 60_000)
        defer { devices.remove() }
        let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .float32)
        let source = try ALSACaptureSource(device: ALSATestDevices.capture, format: format, configFile: devices.configFile)
        defer { source.close() }
        let bytes = try captureAll(source, frames: 48_000).bytes
        let values = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(values.count == 96_000)
        // S16 → float is x / 32768, exact in a Float.
        let scaled = values.map { $0 * 32768 }
        #expect(scaled.allSatisfy { $0 == $0.rounded() && $0 >= -32768 && $0 < 32768 })
        let narrowed = scaled.map { Int16($0.rounded()) }
        #expect(Array(narrowed.prefix(2048)) == Array(devices.samples.prefix(2048)))
        #expect(runsCopied(from: devices.samples, into: narrowed, channels: 2) != nil)
    }

    @Test func monoRequestIsDownmixedByPlug() throws {
        let devices = try ALSATestDevices(frames: 20_000)
        defer { devices.remove() }
        let format = StreamFormat(sampleRate: 48_000, channels: 1, sampleFormat: .int16)
        let source = try ALSACaptureSource(device: ALSATestDevices.capture, format: format, configFile: devices.configFile)
        defer { source.close() }
        #expect(source.format.channels == 1)
        let bytes = try captureAll(source, frames: 4800).bytes
        #expect(bytes.count == 4800 * 2)
    }

    @Test func zeroFramesReadsNothing() throws {
        let devices = try ALSATestDevices(frames: 1000)
        defer { devices.remove() }
        let source = try ALSACaptureSource(
            device: ALSATestDevices.capture, format: ALSATestDevices.stereo48k, configFile: devices.configFile)
        var byte: UInt8 = 0
        let read = try source.read(into: &byte, frames: 0)
        #expect(read == CaptureRead(frames: 0))
        source.close()
        source.close()
    }
}
