import Foundation
import SoundFiles
import TestSupport
import Testing

/// The capture engine's promises kept for a sound server's source (`--source pulse:NAME`, a
/// "microphone" of the test's own on the suite's PulseAudio daemon, a tone played into it): a
/// recording killed with SIGKILL is recovered by the next start to within half a second of what
/// it had recorded, and a full disk stops it naming the cause, keeping what was written.
@Suite struct PulseSourcePromisesTests {
    @Test func aRecordingKilledWithSIGKILLIsRecoveredToWithinHalfASecond() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-12, -12], seconds: 30)
        let outcome = try sandbox.shell("""
            paplay -d \(microphone.feed) --latency-msec=20 tone.wav & player=$!
            recorded() { grep -oE '^recorded [0-9]+' events.txt 2>/dev/null | tail -n 1 | grep -oE '[0-9]+' || echo 0; }
            VOICEMEMO_EVENT_LOG=events.txt voicememo record --source pulse:\(microphone.source) --format flac \\
                --rate 48000 --channels 2 --title Killed > id.txt 2> err.txt & rec=$!
            wait_until 15 "2 s recorded" eval '[ "$(recorded)" -ge 96000 ]' || { kill $rec $player; exit 5; }
            kill -9 $rec; wait $rec 2>/dev/null
            echo "last=$(recorded)"
            kill $player 2>/dev/null; wait $player 2>/dev/null
            exit 0
            """, timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let last = try #require(
            outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("last=") }.flatMap { Int($0.dropFirst(5)) },
            "\(outcome)")
        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0 && list.standardError.contains("recovered"), "\(list)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["state"] as? String == "recovered", "\(memo)")
        let frames = try #require(memo["frames"] as? Int, "\(memo)")
        // What `record` had logged as recorded when it was killed, less at most half a second.
        #expect(frames >= last - 24_000, "\(frames) frames recovered of \(last) logged")
        let path = try #require(memo["path"] as? String)
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.frames == Int64(frames))
        reader.close()
    }

    @Test(.enabled(if: LibraryReadOnlyMountTests.canMount, "needs root to mount a tmpfs"))
    func aFullDiskStopsTheRecordingNamingTheCauseAndKeepsWhatWasWritten() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-12, -12], seconds: 30)
        let outcome = try sandbox.shell("""
            paplay -d \(microphone.feed) --latency-msec=20 tone.wav & player=$!
            mkdir -p mnt
            unshare -m --propagation private bash -c '
              mount -t tmpfs -o size=1m tmpfs mnt || exit 99
              export VOICEMEMO_HOME="$PWD/mnt/library"
              timeout 30 voicememo record --source pulse:\(microphone.source) --format wav --rate 48000 --channels 2 \\
                  --title "Filled the disk" > id.txt 2> record.err
              echo "record=$?"
              cp mnt/library/*.wav full.wav
              umount mnt
            '
            kill $player 2>/dev/null; wait $player 2>/dev/null
            exit 0
            """, timeout: .seconds(60))
        #expect(outcome.standardOutput.contains("record=1"), "\(outcome)")
        let message = (try? String(contentsOfFile: sandbox.file("record.err"), encoding: .utf8)) ?? ""
        #expect(message.contains("No space left on device"), "the message names the cause: \(message)")
        let reader = try SoundFileReader(path: sandbox.file("full.wav"))
        let seconds = reader.info.duration
        reader.close()
        // 1 MiB less the reserve kept for the index: about 4 s of 48 kHz stereo 16-bit.
        #expect(seconds > 2, "what was written plays: \(seconds) s")
    }
}
