import TestSupport
import Glibc
import Testing

@testable import Audio

/// The capture loop's recovery, proven by forcing alsa-lib results through the
/// `PCMOperations` seam while real ALSA (the file-fed device) does everything else.
@Suite struct ALSAForcedErrorTests {
    private func makeSource(
        _ devices: ALSATestDevices, _ operations: FaultInjectingPCMOperations
    ) throws -> ALSACaptureSource {
        let pcm = try ALSAPCM(
            device: ALSATestDevices.capture, stream: .capture, configFile: devices.configFile, operations: operations)
        return try ALSACaptureSource(pcm: pcm, format: ALSATestDevices.stereo48k)
    }

    @Test func overrunOnReadThreeIsRecoveredAndCaptureContinues() throws {
        let devices = try ALSATestDevices(frames: 40_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.readInterleaved: [3: Int(-EPIPE)]])
        let source = try makeSource(devices, operations)
        defer { source.close() }

        let captured = try captureAll(source, frames: 10 * 1024)
        #expect(captured.reads.count == 10)
        #expect(captured.reads.map(\.overruns) == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0])
        #expect(captured.reads.reduce(0) { $0 + $1.overruns } == 1)
        // A forced -EPIPE leaves the real stream running, so nothing was measured as lost.
        #expect(captured.reads[2].lostFrames == 0)
        #expect(operations.count(.prepare) == 1)
        // The forced failure consumed no input, and prepare does not rewind the
        // file plugin: what follows is the file's next bytes.
        #expect(firstDifference(captured.bytes, devices.captureBytes(frames: 10 * 1024)) == "")
    }

    @Test func overrunLengthComesFromTheStatusTimestamps() throws {
        let devices = try ALSATestDevices(frames: 10_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.readInterleaved: [2: Int(-EPIPE)]])
        operations.reportOverrun(lastingMilliseconds: 10)
        let source = try makeSource(devices, operations)
        defer { source.close() }

        let reads = try captureAll(source, frames: 3 * 1024).reads
        #expect(reads[1].overruns == 1)
        // now − trigger_tstamp = 10 ms at 48 kHz.
        #expect(reads[1].lostFrames == 480)
        #expect(operations.count(.status) == 1)
    }

    @Test func framesBetweenTimestamps() {
        let start = timespec(tv_sec: 10, tv_nsec: 999_000_000)
        let end = timespec(tv_sec: 11, tv_nsec: 249_000_000)
        #expect(ALSAPCM.frames(from: start, to: end, rate: 48_000) == 12_000)
        #expect(ALSAPCM.frames(from: end, to: start, rate: 48_000) == 0)
        #expect(ALSAPCM.frames(from: start, to: start, rate: 44_100) == 0)
    }

    @Test func suspendIsResumedAfterTwoNotYets() throws {
        let devices = try ALSATestDevices(frames: 20_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([
            .readInterleaved: [2: Int(-ESTRPIPE)],
            .resume: [1: Int(-EAGAIN), 2: Int(-EAGAIN), 3: 0],
        ])
        let source = try makeSource(devices, operations)
        defer { source.close() }

        let captured = try captureAll(source, frames: 4 * 1024)
        #expect(operations.count(.resume) == 3)
        #expect(operations.count(.prepare) == 0)
        #expect(captured.reads.allSatisfy { $0.overruns == 0 })
        #expect(firstDifference(captured.bytes, devices.captureBytes(frames: 4 * 1024)) == "")
    }

    @Test func suspendThatCannotResumeIsPrepared() throws {
        let devices = try ALSATestDevices(frames: 20_000)
        defer { devices.remove() }
        // A real snd_pcm_resume on plug → file → null succeeds (returns 0), so the
        // "hardware cannot resume" answer of many drivers is forced too.
        let operations = FaultInjectingPCMOperations([
            .readInterleaved: [2: Int(-ESTRPIPE)], .resume: [1: Int(-ENOSYS)],
        ])
        let source = try makeSource(devices, operations)
        defer { source.close() }

        let captured = try captureAll(source, frames: 4 * 1024)
        #expect(operations.count(.resume) == 1)
        #expect(operations.count(.prepare) == 1)
        #expect(firstDifference(captured.bytes, devices.captureBytes(frames: 4 * 1024)) == "")
    }

    @Test(arguments: [ENODEV, ENOTTY])
    func vanishedDeviceEndsCaptureAsDisconnected(code: Int32) throws {
        let devices = try ALSATestDevices(frames: 20_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.readInterleaved: [10: Int(-code)]])
        let source = try makeSource(devices, operations)
        defer { source.close() }

        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1024 * 4, alignment: 16)
        defer { buffer.deallocate() }
        for _ in 1...9 {
            #expect(try source.read(into: buffer, frames: 1024).frames == 1024)
        }
        let error = #expect(throws: CaptureError.self) { try source.read(into: buffer, frames: 1024) }
        #expect(error?.kind == .disconnected)
        #expect(error?.message == "the input device \"voicememo_capture\" was disconnected")
    }

    @Test func ioErrorEndsCaptureAsIO() throws {
        let devices = try ALSATestDevices(frames: 10_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.readInterleaved: [1: Int(-EIO)]])
        let source = try makeSource(devices, operations)
        defer { source.close() }

        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256 * 4, alignment: 16)
        defer { buffer.deallocate() }
        let error = #expect(throws: CaptureError.self) { try source.read(into: buffer, frames: 256) }
        #expect(error?.kind == .io)
        #expect(error?.message == "cannot read from capture device \"voicememo_capture\": input/output error")
    }

    @Test func failedPrepareAfterOverrunEndsCapture() throws {
        let devices = try ALSATestDevices(frames: 10_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([
            .readInterleaved: [1: Int(-EPIPE)], .prepare: [1: Int(-ENODEV)],
        ])
        let source = try makeSource(devices, operations)
        defer { source.close() }

        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256 * 4, alignment: 16)
        defer { buffer.deallocate() }
        let error = #expect(throws: CaptureError.self) { try source.read(into: buffer, frames: 256) }
        #expect(error?.kind == .disconnected)
    }

    @Test func notReadyWaitsThenReads() throws {
        let devices = try ALSATestDevices(frames: 10_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.readInterleaved: [1: Int(-EAGAIN), 2: Int(-EAGAIN)]])
        let source = try makeSource(devices, operations)
        defer { source.close() }

        let captured = try captureAll(source, frames: 1024)
        #expect(operations.count(.wait) == 2)
        #expect(captured.reads.count == 1)
        #expect(firstDifference(captured.bytes, devices.captureBytes(frames: 1024)) == "")
    }

    @Test func busyAtOpenSaysTheDeviceIsInUse() throws {
        let devices = try ALSATestDevices(frames: 1000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([.open: [1: Int(-EBUSY)]])
        let error = #expect(throws: ALSAError.self) {
            _ = try ALSAPCM(
                device: ALSATestDevices.capture, stream: .capture, configFile: devices.configFile,
                operations: operations)
        }
        #expect(error == .busy)
        #expect(error?.function == "snd_pcm_open_lconf")
        #expect(
            error?.description
                == "cannot open capture device \"voicememo_capture\": the device is in use by another program")
    }
}

/// A failing `snd_pcm_wait` after "not ready" ends capture rather than spinning.
@Suite struct ALSAWaitFailureTests {
    @Test func failedWaitEndsCapture() throws {
        let devices = try ALSATestDevices(frames: 10_000)
        defer { devices.remove() }
        let operations = FaultInjectingPCMOperations([
            .readInterleaved: [1: Int(-EAGAIN)], .wait: [1: Int(-ENODEV)],
        ])
        let pcm = try ALSAPCM(
            device: ALSATestDevices.capture, stream: .capture, configFile: devices.configFile, operations: operations)
        let source = try ALSACaptureSource(pcm: pcm, format: ALSATestDevices.stereo48k)
        defer { source.close() }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256 * 4, alignment: 16)
        defer { buffer.deallocate() }
        let error = #expect(throws: CaptureError.self) { try source.read(into: buffer, frames: 256) }
        #expect(error?.kind == .disconnected)
    }
}
