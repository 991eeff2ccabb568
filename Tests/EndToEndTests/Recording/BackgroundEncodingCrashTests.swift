import TestSupport
import Foundation
import SoundFiles
import Testing

/// kill -9 while an MP3 memo is being encoded as it records, and while recovery encodes what
/// a killed recording left: the next `list` always ends with the whole memo, playable.
@Suite struct BackgroundEncodingCrashTests {
    /// `record --format mp3` from a real-time tone, killed once its final file has grown (the
    /// encoder follows the writer): `list` recovers a playable memo missing at most 0.5 s,
    /// counted from the memo's creation time in the index (stored by `record` before its
    /// input even opens) to the kill.
    @Test(arguments: ["mp3", "ogg"])
    func killedWhileEncodingInTheBackgroundIsRecoveredWhole(format: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.shell("""
            index="$VOICEMEMO_HOME/index.sqlite3"
            voicememo record --source tone:440@-6 --format \(format) --channels 1 --title "Killed" > id.txt 2> err.txt &
            pid=$!
            printed() { [ -s id.txt ] || { kill -0 $pid 2>/dev/null || { cat err.txt >&2; exit 3; }; false; }; }
            wait_until 30 "record to print the memo's id" printed || exit 124
            path=""
            indexed() { path=$(sqlite3 "$index" ".timeout 5000" "SELECT path FROM memos WHERE id = $(cat id.txt)"); [ -n "$path" ]; }
            poll=0 wait_until 30 "the memo's path in the index" indexed || exit 124
            path="$VOICEMEMO_HOME/$path"
            # The final file exists from the start (tags, headers); wait until the encoder has added audio to it.
            wait_until 30 "the memo's file $path" test -e "$path" || exit 124
            first=$(stat -c %s "$path")
            grown() { [ "$(stat -c %s "$path")" -gt $((first + 4096)) ]; }
            poll=0.05 wait_until 30 "the encoder to add audio to $path" grown || exit 124
            sleep 1
            killed=$(date +%s.%N)
            kill -9 $pid
            wait $pid 2>/dev/null
            created=$(sqlite3 "$index" ".timeout 5000" "SELECT printf('%.6f', created) FROM memos WHERE id = $(cat id.txt)")
            echo "$created $killed $(stat -c %s "$path")"
            ls -a "$VOICEMEMO_HOME"
            """, timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let fields = outcome.standardOutput.split(separator: "\n").first?.split(separator: " ").compactMap { Double($0) } ?? []
        try #require(fields.count == 3, "\(outcome)")
        let recordedFor = fields[1] - fields[0]
        #expect(outcome.standardOutput.contains(".partial.w64"), "the intermediate is kept: \(outcome)")

        let list = try sandbox.run("list", "--json")
        #expect(list.status == 0, "\(list)")
        #expect(list.standardError.contains("recovering memo 1 “Killed” after a crash: encoding"), "\(list)")
        #expect(list.standardError.contains("1 memo recovered after a crash: 1"), "\(list)")
        let memo = try #require(try sandbox.listedMemos().first)
        #expect(memo["state"] as? String == "recovered")
        #expect(memo["title"] as? String == "Killed")
        let duration = try #require(memo["duration"] as? Double)
        let path = try #require(memo["path"] as? String)
        let reader = try SoundFileReader(path: path)
        var decoded = 0
        var buffer = [Float](repeating: 0, count: 4096)
        while true {
            let read = try buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return try reader.read(into: base, frames: 4096, as: .float32)
            }
            if read == 0 { break }
            decoded += read
        }
        reader.close()
        let playable = Double(decoded) / 48_000
        print(String(format: "BackgroundEncodingCrashTests: %@ killed %.3f s after the memo was created; recovered %.3f s, plays %.3f s: loss %.3f s",
            format, recordedFor, duration, playable, recordedFor - duration))
        #expect(recordedFor - duration <= 0.5, "lost \(recordedFor - duration) s")
        #expect(duration <= recordedFor + 0.05)
        #expect(abs(playable - duration) < 0.05, "the file plays what the index says")
        #expect(!FileManager.default.fileExists(atPath: SoundFileRecovery.intermediatePath(for: path)))
    }

    /// An MP3 recorded from an unpaced file device (hundreds of times real time, so the nice-19
    /// encoder lags far behind) and killed once 2 minutes are in the intermediate: `list --no-wait` lists it at once as `recording`, and
    /// neither it nor `record` encodes anything; a `list` stopped by SIGINT, then one killed with -9, in the middle of
    /// recovery's encode (as soon as it reports 10 %) leave the memo as it was; a clean `list`
    /// then finishes it whole.
    @Test func killedDuringRecoveryTheNextStartFinishesTheMemo() throws {
        let sandbox = try VoiceMemoSandbox()
        let clock = ContinuousClock()
        var stepStart = clock.now
        func step(_ what: String) {
            print("BackgroundEncodingCrashTests: killed during recovery: \(what) took \(clock.now - stepStart)")
            stepStart = clock.now
        }
        // A minute of noise from the unpaced file device, repeated past its end (the file
        // plugin's stale data), for up to 10 minutes: the recording runs at a few hundred
        // times real time, so it is still running (its encoder far behind) seconds after the
        // intermediate holds 2 minutes, however late the poll below sees it. With 50 s it
        // ended 0.7 s after it started, and a poll starved that long on a loaded machine saw
        // it end. Two minutes, not fewer, so that the recoveries below take a second or two
        // (20 s took 0.3 s, a window a starved poll could miss before its SIGINT or -9).
        let input = sandbox.file("input.raw")
        try TestSignals.writeRawNoise(to: input, frames: 48_000 * 60)
        try sandbox.installALSATestDevices(captureFile: input)
        step("writing a minute of noise")
        let killed = try sandbox.shell("""
            voicememo record --source alsa:voicememo_capture --rate 48000 --channels 2 --format mp3 --duration 10m \
                > id.txt 2> err.txt &
            pid=$!
            # The intermediate holds float stereo: 120 s are 46 MB.
            written() {
                [ -n "$(find "$VOICEMEMO_HOME" -name '.*.partial.w64' -size +45000k)" ] && return
                kill -0 $pid 2>/dev/null || { echo "record ended before 120 s were written" >&2; cat err.txt >&2; exit 3; }
                false
            }
            wait_until 100 "120 s in the intermediate" written || exit 124
            kill -9 $pid
            wait $pid 2>/dev/null
            stat -c %s "$VOICEMEMO_HOME"/.*.partial.w64
            """, timeout: .seconds(120))
        step("recording 2 minutes and killing it")
        #expect(killed.status == 0, "\(killed)")
        let intermediateBytes = try #require(Int(killed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))

        let quick = try sandbox.run("list", "--no-wait", "--json")
        step("list --no-wait")
        #expect(quick.status == 0, "\(quick)")
        #expect(quick.standardError.contains("1 memo from a recording that was killed or stopped by a full disk waits to be recovered (1)"), "\(quick)")
        let pending = try JSONSerialization.jsonObject(with: Data(quick.standardOutput.utf8)) as? [[String: Any]]
        #expect(pending?.first?["state"] as? String == "recording", "\(quick)")
        // `record` does not wait for it either, and says so.
        let another = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.2", "--title", "Meanwhile")
        step("record meanwhile")
        #expect(another.status == 0, "\(another)")
        #expect(another.standardError.contains("waits to be recovered (1); `voicememo list` recovers it"), "\(another)")

        // Ctrl-C in the middle of recovery's encode: a clean stop, exit 130, nothing changed.
        let stopped = try sandbox.shell("""
            : > list-err.txt
            voicememo list > list.txt 2> list-err.txt &
            pid=$!
            at_ten() {
                grep -q "encoding memo 1: 10 %" list-err.txt && return
                kill -0 $pid 2>/dev/null || { echo "list ended before 10 %" >&2; cat list-err.txt >&2; exit 3; }
                false
            }
            wait_until 240 "list to report 10 % of the recovery's encode" at_ten || exit 124
            kill -INT $pid
            wait $pid
            echo "status=$?"
            cat list-err.txt
            sqlite3 "$VOICEMEMO_HOME/index.sqlite3" ".timeout 5000" "SELECT state FROM memos WHERE id = 1"
            """, timeout: .seconds(300))
        step("list stopped by SIGINT at 10 %")
        #expect(stopped.standardOutput.contains("status=130"), "\(stopped)")
        #expect(stopped.standardOutput.contains("SIGINT: stopped recovering; memo 1 is kept as it was"), "\(stopped)")
        #expect(stopped.standardOutput.contains("\nrecording\n"), "\(stopped)")

        // Its own files: the stopped list's "10 %" must not be read as this one's (the
        // background list truncates its file only once it has started).
        let interrupted = try sandbox.shell("""
            : > killed-err.txt
            voicememo list > killed.txt 2> killed-err.txt &
            pid=$!
            at_ten() {
                grep -q "encoding memo 1: 10 %" killed-err.txt && return
                kill -0 $pid 2>/dev/null || { echo "list ended before 10 %" >&2; cat killed-err.txt >&2; exit 3; }
                false
            }
            wait_until 240 "list to report 10 % of the recovery's encode" at_ten || exit 124
            kill -9 $pid
            wait $pid 2>/dev/null
            cat killed-err.txt
            sqlite3 "$VOICEMEMO_HOME/index.sqlite3" ".timeout 5000" "SELECT state FROM memos WHERE id = 1"
            ls -a "$VOICEMEMO_HOME"
            """, timeout: .seconds(300))
        step("list killed at 10 %")
        #expect(interrupted.status == 0, "\(interrupted)")
        #expect(interrupted.standardOutput.contains("recovering memo 1"), "\(interrupted)")
        #expect(interrupted.standardOutput.contains("\nrecording\n"), "the row is untouched: \(interrupted)")
        #expect(interrupted.standardOutput.contains(".partial.w64"), "the intermediate is kept: \(interrupted)")

        let clean = try sandbox.run(arguments: ["list", "--json"], timeout: .seconds(300))
        step("list recovering it whole")
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.standardError.contains("1 memo recovered after a crash: 1"), "\(clean)")
        let memo = try #require(try sandbox.listedMemos().first { $0["id"] as? Int == 1 })
        #expect(memo["state"] as? String == "recovered")
        let frames = try #require(memo["frames"] as? Int)
        // The intermediate's frames: its size less a header of at most 4 kB, 8 bytes a frame.
        let expected = intermediateBytes / 8
        #expect(frames <= expected + 1152 && frames >= expected - 512 - 1152, "\(frames) frames of \(expected)")
        #expect(frames >= 48_000 * 120)
        let path = try #require(memo["path"] as? String)
        #expect(!FileManager.default.fileExists(atPath: SoundFileRecovery.intermediatePath(for: path)))
        print("BackgroundEncodingCrashTests: killed during recovery, then recovered \(Double(frames) / 48_000) s of \(Double(expected) / 48_000) s")
    }
}
