import TestSupport
import Foundation
import SoundFiles
import Testing

/// Recordings past 4 GiB, for real: 3 h 7 min of 48 kHz stereo 32-bit PCM from the unpaced
/// tone (about a minute each), in a sandbox on /dev/shm when it has room (write speed), else
/// /tmp; the sandbox, and so every multi-GiB file, is removed when each test ends, failed or not.
///
/// 32-bit samples, not the default 16-bit ones: what the 4 GiB limits are about is bytes (the
/// RIFF and FORM sizes, RF64's ds64), and 8 bytes a frame pass them with half the frames of
/// 16-bit stereo, so half the work (the recorder's cost is per frame: 6 h 13 min of 16-bit
/// took 150 s a recording). The AIFF's refusal of a `--duration` past its 4 GiB is still
/// checked at 16-bit, where the user guide's 6:12:44 comes from.
///
/// What every reader must do is read the file to its last frame: the last second each of
/// libsndfile (`SoundFileReader`), sox and ffmpeg decodes is compared with the bytes at the end
/// of the file's audio, read straight from the file.
@Suite(.serialized) struct FourGiBRecordingTests {
    /// 11 200 s: 4 300 800 000 bytes of audio, past 4 GiB (4 294 967 296).
    static let longSeconds = 11_200
    static let rate = 48_000
    /// 32-bit PCM (`--encoding pcm32`), stereo.
    static let encoding = "pcm32"
    static let bytesPerFrame = 8
    /// A second of audio, in bytes.
    static var second: Int { bytesPerFrame * rate }

    /// Where the sandbox goes: a tmpfs with room for 6 GB, else the system's temporary folder.
    static func sandbox() throws -> VoiceMemoSandbox {
        var status = statvfs()
        let shm = "/dev/shm"
        let roomy = statvfs(shm, &status) == 0 && UInt64(status.f_bavail) * UInt64(status.f_frsize) > 6_000_000_000
        let sandbox = try VoiceMemoSandbox(in: roomy ? URL(fileURLWithPath: shm) : nil)
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        return sandbox
    }

    @Test func aWAVRecordedPastFourGiBIsRF64AndEveryReaderReadsItToTheEnd() throws {
        let sandbox = try Self.sandbox()
        let started = Date()
        let recorded = try sandbox.run(
            "record", "--source", "tone:440@-6", "--format", "wav", "--encoding", Self.encoding,
            "--duration", "\(Self.longSeconds)", "--title", "Day",
            timeout: .seconds(1200))
        #expect(recorded.status == 0, "\(recorded)")
        let seconds = Date().timeIntervalSince(started)
        let memo = try #require(try StreamTestServer.memos(sandbox).first)
        let frames = Int64(Self.longSeconds * Self.rate)
        #expect(memo["frames"] as? Int64 == frames || memo["frames"] as? Int == Int(frames), "\(memo)")
        let path = try #require(memo["path"] as? String)
        let audio = try Self.wavAudio(of: path)
        #expect(audio.isRF64, "past 4 GiB the header is RF64")
        #expect(audio.size == UInt64(frames) * UInt64(Self.bytesPerFrame))
        try Self.expectEveryReaderReadsTheLastSecond(of: path, frames: frames, audio: audio)
        print("FourGiBRecordingTests WAV: \(frames) frames, \(audio.start + audio.size) bytes, RF64, recorded in \(Int(seconds)) s")

        // The library works on it: a marker and a title in place (the file is not copied),
        // and a trim of its last 10 s.
        let inode = try Self.inode(of: path)
        let marked = try sandbox.run("mark", "1", "\(Self.longSeconds - 10)", "--label", "near the end")
        #expect(marked.status == 0, "\(marked)")
        let renamed = try sandbox.run("rename", "1", "Day-long meeting")
        #expect(renamed.status == 0, "\(renamed)")
        #expect(try Self.inode(of: path) == inode, "the title and the marker were written in place")
        #expect(try SoundFileReader(path: path).metadata.title == "Day-long meeting")
        #expect(FileMarkers.read(from: path, format: .wav) == [FileMarker(frame: Int64((Self.longSeconds - 10) * Self.rate), label: "near the end")])
        try Self.expectEveryReaderReadsTheLastSecond(of: path, frames: frames, audio: audio)
        let original = try Self.bytes(of: path, at: audio.start + audio.size - UInt64(Self.second), count: Self.second)
        let trimmed = try sandbox.run("trim", "1", "--from", "\(Self.longSeconds - 10)", timeout: .seconds(300))
        #expect(trimmed.status == 0, "\(trimmed)")
        let memos = try StreamTestServer.memos(sandbox)
        let tail = try #require(memos.first { ($0["id"] as? Int) == 2 })
        #expect(tail["frames"] as? Int == 10 * Self.rate, "\(tail)")
        let tailPath = try #require(tail["path"] as? String)
        let tailAudio = try Self.wavAudio(of: tailPath)
        #expect(!tailAudio.isRF64, "10 s stay a plain RIFF/WAVE")
        let copied = try Self.bytes(of: tailPath, at: tailAudio.start + tailAudio.size - UInt64(Self.second), count: Self.second)
        #expect(original == copied, "the trim ends on the recording's last frame")
    }

    /// kill -9 after the file passed 4 GiB: the next `list` recovers every frame on disk.
    @Test func aWAVKilledAfterPassingFourGiBIsRecoveredToItsLastFrame() throws {
        let sandbox = try Self.sandbox()
        let outcome = try sandbox.shell("""
            voicememo record --source tone:440@-6 --format wav --encoding \(Self.encoding) --title Killed > id.txt 2> err.txt &
            pid=$!
            until f=$(ls library/*.wav 2>/dev/null) && [ "$(stat -c %s "$f")" -gt 4300000000 ]; do
                kill -0 $pid 2>/dev/null || { echo "record ended early: $(cat err.txt)"; exit 1; }
                sleep 0.2
            done
            kill -9 $pid
            wait $pid 2>/dev/null
            echo "$f $(stat -c %s "$f")"
            """, timeout: .seconds(1200))
        let fields = outcome.standardOutput.split(separator: " ")
        let killedSize = try #require(fields.count == 2 ? UInt64(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil, "\(outcome)")
        let path = sandbox.file(String(fields[0]))
        let before = try Self.wavAudio(of: path)
        // The recovery measures the whole file (its loudness, peaks): 15 s of CPU on a quiet
        // machine, more than `run`'s 30 s while other tests share the cores.
        let listed = try sandbox.run("list", "--json", timeout: .seconds(300))
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.standardError.contains("recovered"), "\(listed)")
        let memo = try #require(try StreamTestServer.memos(sandbox).first)
        let audio = try Self.wavAudio(of: path)
        #expect(audio.isRF64)
        let frameBytes = UInt64(Self.bytesPerFrame)
        let onDisk = (killedSize - audio.start) / frameBytes
        #expect(audio.size == onDisk * frameBytes,
            "every whole frame on disk is in the repaired header (it said \(before.size / frameBytes) frames, \(onDisk) were there)")
        #expect(memo["frames"] as? Int == Int(onDisk), "\(memo)")
        #expect(memo["state"] as? String == "recovered", "\(memo)")
        try Self.expectEveryReaderReadsTheLastSecond(of: path, frames: Int64(onDisk), audio: audio)
        print("FourGiBRecordingTests killed: \(killedSize) bytes at the kill, header \(before.isRF64 ? "RF64" : "RIFF") said \(before.size / frameBytes) frames, "
            + "\(onDisk) on disk and recovered (\(Double(onDisk) / Double(Self.rate)) s; the header trailed by \(onDisk - before.size / frameBytes) frames)")
    }

    /// An open-ended AIFF stops at its 4 GiB, saying so, and is kept, readable to its last frame.
    @Test func anAIFFStopsAtFourGiBAndIsKeptReadableToItsLastFrame() throws {
        let sandbox = try Self.sandbox()
        let refused = try sandbox.run("record", "--source", "tone:440@-6", "--format", "aiff", "--duration", "7h")
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.standardError.contains("06:12:44"), "\(refused)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.libraryDirectory.path).filter { $0.hasSuffix(".aiff") }.isEmpty)

        let started = Date()
        let recorded = try sandbox.run(
            "record", "--source", "tone:440@-6", "--format", "aiff", "--encoding", Self.encoding, timeout: .seconds(1200))
        #expect(recorded.status == 1, "\(recorded)")
        let seconds = Date().timeIntervalSince(started)
        #expect(recorded.standardError.contains("4 GiB") && recorded.standardError.contains("kept"), "\(recorded)")
        let limit = try #require(RecordingSettings(format: .aiff, encoding: .pcm32).maximumFrames)
        let memo = try #require(try StreamTestServer.memos(sandbox).first)
        #expect(memo["frames"] as? Int == Int(limit), "\(memo)")
        #expect(memo["state"] as? String == "complete", "\(memo)")
        let path = try #require(memo["path"] as? String)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64)
        #expect(size <= UInt64(UInt32.max) + 8, "the FORM size still holds the file")
        let bigEndian = try Self.bytes(of: path, at: size - UInt64(Self.second), count: Self.second)
        // AIFF samples are big-endian; the readers give little-endian s32.
        var lastSecond = Data(count: bigEndian.count)
        for index in stride(from: 0, to: bigEndian.count, by: 4) {
            for byte in 0..<4 {
                lastSecond[index + byte] = bigEndian[bigEndian.startIndex + index + 3 - byte]
            }
        }
        try Self.expectReaders(path, frames: limit, lastSecond: lastSecond)
        print("FourGiBRecordingTests AIFF: stopped at \(limit) frames, \(size) bytes, in \(Int(seconds)) s; it said: \(recorded.standardError)")
    }

    // MARK: Reading

    /// Where a WAV's audio is and how long, from its header (RIFF or RF64's ds64).
    struct WAVAudio {
        var isRF64: Bool
        var start: UInt64
        var size: UInt64
    }

    static func wavAudio(of path: String) throws -> WAVAudio {
        let head = try bytes(of: path, at: 0, count: 4096)
        let isRF64 = ascii(head, 0) == "RF64"
        var offset = 12
        while offset + 8 <= head.count {
            let size = UInt64(littleEndian(head, offset + 4, width: 4))
            if ascii(head, offset) == "data" {
                let dataSize = isRF64 && size == UInt64(UInt32.max) ? littleEndian(head, 28, width: 8) : size
                return WAVAudio(isRF64: isRF64, start: UInt64(offset + 8), size: dataSize)
            }
            offset += 8 + Int(size + size % 2)
        }
        throw Tool.Failed(description: "\(path): no data chunk in its first 4 KiB")
    }

    static func expectEveryReaderReadsTheLastSecond(of path: String, frames: Int64, audio: WAVAudio) throws {
        let lastSecond = try bytes(of: path, at: audio.start + audio.size - UInt64(second), count: second)
        try expectReaders(path, frames: frames, lastSecond: lastSecond)
    }

    /// libsndfile, sox and ffmpeg each say `frames` and decode `lastSecond` (s32le) at the end.
    static func expectReaders(_ path: String, frames: Int64, lastSecond: Data) throws {
        #expect(lastSecond.contains { $0 != 0 }, "the tone, not silence")
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.frames == frames)
        try reader.seek(toFrame: frames - Int64(rate))
        var samples = [Int32](repeating: 0, count: 2 * rate)
        let read = try samples.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return try reader.read(into: base, frames: rate, as: .int32)
        }
        #expect(read == rate)
        #expect(samples.withUnsafeBytes { Data($0) } == lastSecond, "libsndfile reads the last second")
        let start = String(frames - Int64(rate)) + "s"
        #expect(try Tool.output("/usr/bin/sox", ["--i", "-s", path]) == Data("\(frames)\n".utf8), "sox's length")
        #expect(try Tool.output("/usr/bin/sox", [path, "-t", "raw", "-e", "signed", "-b", "32", "-L", "-", "trim", start]) == lastSecond,
            "sox reads the last second")
        let probed = try Tool.output("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=duration_ts", "-of", "csv=p=0", path])
        #expect(String(decoding: probed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == String(frames), "ffprobe's length")
        // From a whole second (ffmpeg seeks by time), to the end: what ends it is the last second.
        let fromSecond = frames / Int64(rate) - 2
        let decoded = try Tool.output("/usr/bin/ffmpeg", ["-v", "error", "-ss", String(fromSecond), "-i", path, "-f", "s32le", "-"])
        #expect(decoded.count == Int(frames - fromSecond * Int64(rate)) * bytesPerFrame, "ffmpeg decodes to the last frame")
        #expect(decoded.suffix(lastSecond.count) == lastSecond, "ffmpeg reads the last second")
    }

    static func bytes(of path: String, at offset: UInt64, count: Int) throws -> Data {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        return try handle.read(upToCount: count) ?? Data()
    }

    static func inode(of path: String) throws -> UInt64 {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }

    static func ascii(_ data: Data, _ offset: Int) -> String {
        String(decoding: data[(data.startIndex + offset)..<(data.startIndex + offset + 4)], as: UTF8.self)
    }

    static func littleEndian(_ data: Data, _ offset: Int, width: Int) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { $0 | UInt64(data[data.startIndex + offset + $1]) << (8 * $1) }
    }
}
