import Foundation
import PulseTestSupport
import SoundFiles
import Testing

/// The commands through PipeWire, the default sound server of current desktops: its own ALSA
/// plugin (`type pipewire`) on a private PipeWire with WirePlumber of each test's own, a null
/// sink on it (`vm_pw`), and `aplay` playing into it through the same plugin.
@Suite struct PipeWireTests {
    /// `NAME=VALUE` lines a script printed.
    static func value(_ name: String, in outcome: ProcessOutcome) -> String? {
        outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    /// Shell helpers: `until_true SECONDS COMMAND…` polls a condition with a deadline (exit 3
    /// when it never holds); `bigger FILE BYTES`.
    static let helpers = """
        until_true() { local limit=$(( $(date +%s%N) + $1 * 1000000000 )); shift
            until "$@"; do [ "$(date +%s%N)" -lt "$limit" ] || { echo "timeout: $*"; cat *.err; exit 3; }; sleep 0.02; done; }
        size() { stat -c %s "$1" 2>/dev/null || echo 0; }
        bigger() { [ "$(size "$1")" -gt "$2" ]; }

        """

    /// The feeding client, `aplay` into the route's sink.
    ///
    /// It is not a perfect source: on a loaded 2-core machine it sometimes misses a graph
    /// cycle (1024 frames, 21 ms), and the sink mixes silence for it, or part of the late
    /// block (seen: 1024 to 4096 frames of silence in place and 15 cycles a little off, with a
    /// 4 s ALSA buffer as with aplay's own 0.5 s — so not its buffer running dry but the
    /// plugin's normal-priority `alsa-pipewire` thread being late). So the recorder is not
    /// compared with the played file but with ``referenceStart``'s capture of the same
    /// monitor, which holds the same silence; capture, unlike playback, waits in the server's
    /// queue for a late reader.
    static let feeder = "aplay -q -D \(VoiceMemoSandbox.pipeWireDevice)"

    /// Shell lines starting a reference capture of the sink's monitor, `arecord` through the
    /// same device with a 2 s buffer, into `reference.wav` (16-bit stereo, 48 kHz) on a
    /// memory file system where there is one (a disk write cannot hold it up), returning once
    /// it has 0.5 s; ``referenceStop`` ends it. The reference is what the server had: a
    /// capture of the same monitor in the same graph, so every frame the recorder wrote must
    /// be in it, unchanged and in order. (`pw-record` lost frames here under load.)
    static let referenceStart = """
        shm=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d -p .)
        arecord -q -D \(VoiceMemoSandbox.pipeWireDevice) -f S16_LE -r 48000 -c 2 --buffer-time=2000000 --period-time=100000 \\
            "$shm/reference.wav" 2> reference.err & reference=$!
        until_true 15 bigger "$shm/reference.wav" 100000

        """

    /// Ends the capture ``referenceStart`` started, a second after the recording ended (SIGINT:
    /// arecord writes what it has read and closes its file; what is still in its ring is lost), moves
    /// it to `reference.wav`, and prints what arecord said (an overrun would be there).
    static let referenceStop = """

        sleep 1  # arecord has read the recording's last frames from its ring (100 ms periods)
        kill -INT $reference; wait $reference || true
        mv "$shm/reference.wav" reference.wav; rmdir "$shm"
        echo "arecord_said=$(tr "\n" " " < reference.err)"

        """

    @Test func twentySecondsFromASinksMonitorAreBitExact() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePipeWire()
        defer { withExtendedLifetime(sink) {} }
        try TestSignals.writeNoiseWAV(to: sandbox.file("played.wav"), seconds: 15)

        let outcome = try sandbox.shell(Self.helpers + Self.referenceStart + """
            start=$(date +%s%N)
            voicememo record --source alsa:\(VoiceMemoSandbox.pipeWireDevice) --format wav --encoding pcm16 \\
                --rate 48000 --channels 2 --duration 20 --json --output rec.wav > rec.json 2> rec.err & pid=$!
            until_true 15 bigger rec.wav 100000
            \(Self.feeder) played.wav 2> play.err & player=$!
            if ! (until_true 40 eval '! kill -0 $pid 2>/dev/null'); then
                echo "stuck: rec.wav $(size rec.wav) bytes; aplay $(kill -0 $player 2>/dev/null && echo running || echo done)"
                pw-link -r "$PIPEWIRE_SOCKET" -l; kill -9 $pid $player
            fi
            wait $pid; echo "status=$?"
            echo "wall_ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            wait $player; echo "player=$?"
            echo "aplay_said=$(tr "\n" " " < play.err)"
            """ + Self.referenceStop, timeout: .seconds(90))
        #expect(Self.value("status", in: outcome) == "0", "\(outcome)")
        #expect(Self.value("player", in: outcome) == "0", "aplay played the whole file: \(outcome)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sandbox.file("rec.json")))) as? [String: Any])
        let recorded = try TestSignals.readInt16(sandbox.file("rec.wav"))
        let played = try TestSignals.readInt16(sandbox.file("played.wav"))
        let wall = Self.value("wall_ms", in: outcome).flatMap(Int.init) ?? -1
        let reference = try #require(try? TestSignals.readInt16(sandbox.file("reference.wav")), "the reference capture: \(outcome)")
        let match = BitExactMatch(played: played.samples, recorded: recorded.samples, channels: 2)
        let same = ReferenceMatch(recorded: recorded.samples, reference: reference.samples, channels: 2)
        let correlation = AlignedCorrelation(played: played.samples, recorded: recorded.samples, sampleRate: 48_000)
        print("PipeWireTests: 20 s from a PipeWire monitor: \(recorded.info.frames) frames in \(wall) ms wall; overruns \(json["overruns"] ?? "?"), lost frames \(json["lost_frames"] ?? "?"); against arecord of the same monitor: \(same.map(String.init(describing:)) ?? "not found") (arecord said \(Self.value("arecord_said", in: outcome).debugDescription)); against the played file: \(match.map(String.init(describing:)) ?? "not found"); \(correlation.map(String.init(describing:)) ?? "not aligned"); \(Self.value("aplay_said", in: outcome) ?? "")")

        #expect(recorded.info.frames == 960_000, "the duration limit is frame-exact: \(recorded.info.frames)")
        // From below only, as in RealTimeCaptureTests: a slow machine must not fail it.
        #expect(wall >= 19_500, "captured in real time: \(wall) ms")
        #expect(json["overruns"] as? Int == 0, "\(json)")
        #expect(json["lost_frames"] as? Int == 0, "\(json)")
        // Every sample the server had is in the recording, unchanged and in order.
        let exact = try #require(same, "the recording is in the reference capture")
        #expect(exact.differing == 0 && exact.compared == recorded.samples.count, "\(exact)")
        // And what was played is what was heard (the feeder's missed cycles aside, see `feeder`).
        let found = try #require(match, "the played noise is in the recording")
        #expect(found.compared == played.samples.count, "the whole file was heard: \(found)")
        #expect((correlation?.overall ?? 0) >= 0.9, "\(String(describing: correlation))")
    }

    @Test func sigtermEndsARecordingWithinOneSecondAndKeepsIt() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePipeWire()
        defer { withExtendedLifetime(sink) {} }
        try TestSignals.writeNoiseWAV(to: sandbox.file("played.wav"), seconds: 20)
        let outcome = try sandbox.shell(Self.helpers + Self.referenceStart + """
            voicememo record --source alsa:\(VoiceMemoSandbox.pipeWireDevice) --format wav --json > memo.json 2> rec.err & pid=$!
            until_true 15 eval 'ls "$VOICEMEMO_HOME"/*.wav > /dev/null 2>&1'
            file=$(ls "$VOICEMEMO_HOME"/*.wav | head -1)
            until_true 15 bigger "$file" 100000
            \(Self.feeder) played.wav 2> play.err & player=$!
            until_true 15 bigger "$file" $(( $(size "$file") + 400000 ))
            t0=$(date +%s%N); kill -TERM $pid; wait $pid; status=$?; t1=$(date +%s%N)
            kill $player 2>/dev/null; wait $player 2>/dev/null
            echo "status=$status"; echo "stop_ms=$(( (t1 - t0) / 1000000 ))"; echo "file=$file"
            echo "aplay_said=$(tr "\n" " " < play.err)"
            """ + Self.referenceStop, timeout: .seconds(60))
        let stopMilliseconds = Self.value("stop_ms", in: outcome).flatMap(Int.init) ?? -1
        print("PipeWireTests: record through PipeWire, SIGTERM → exit \(Self.value("status", in: outcome) ?? "?") in \(stopMilliseconds) ms")
        #expect(Self.value("status", in: outcome) == "0", "\(outcome)")
        #expect(stopMilliseconds >= 0 && stopMilliseconds < 1000, "stopped in \(stopMilliseconds) ms")
        let path = try #require(Self.value("file", in: outcome), "\(outcome)")
        let recorded = try TestSignals.readInt16(path)
        #expect(recorded.info.frames >= 100_000, "what was captured is kept: \(recorded.info.frames) frames")
        let memo = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sandbox.file("memo.json")))) as? [String: Any])
        #expect(memo["frames"] as? Int == Int(recorded.info.frames), "the memo lists what the file holds: \(memo)")
        let played = try TestSignals.readInt16(sandbox.file("played.wav"))
        let match = try #require(
            BitExactMatch(played: played.samples, recorded: recorded.samples, channels: 2), "the noise is in the memo")
        let reference = try #require(try? TestSignals.readInt16(sandbox.file("reference.wav")), "the reference capture: \(outcome)")
        let same = try #require(ReferenceMatch(recorded: recorded.samples, reference: reference.samples, channels: 2))
        print("PipeWireTests: record through PipeWire, SIGTERM: \(recorded.info.frames) frames kept; against arecord of the same monitor: \(same) (arecord said \(Self.value("arecord_said", in: outcome).debugDescription)); against the played file: \(match)")
        #expect(match.compared >= 96_000, "at least 0.5 s of the noise is in the memo: \(match)")
        #expect(same.differing == 0 && same.compared == recorded.samples.count, "unchanged up to the stop: \(same)")
    }

    /// PipeWire without a session manager: the stream connects and is never linked, so not one
    /// frame comes, and alsa-lib returns no error. `meter` says so once 2 s have passed (by its
    /// own count), and SIGTERM still ends it within 1 s; `record` ends within 1 s too, keeping
    /// nothing (there is nothing to keep).
    @Test func anUnlinkedStreamIsReportedAndStopsWithinOneSecond() throws {
        let daemon = try PipeWirePrivateDaemon(linking: false)
        let sink = try daemon.makeSink()
        let sandbox = try VoiceMemoSandbox()
        try sandbox.usePipeWire(definitions: sink.alsaDefinitions(device: VoiceMemoSandbox.pipeWireDevice), daemon: daemon)
        let outcome = try sandbox.shell(Self.helpers + """
            has() { grep -q "$1" "$2" 2>/dev/null; }
            voicememo meter --source alsa:\(VoiceMemoSandbox.pipeWireDevice) --json > meter.jsonl 2> meter.err & pid=$!
            voicememo record --source alsa:\(VoiceMemoSandbox.pipeWireDevice) --format wav > record.out 2> record.err & recorder=$!
            until_true 20 has no_audio meter.jsonl
            t0=$(date +%s%N); kill -TERM $pid; wait $pid; status=$?; t1=$(date +%s%N)
            echo "status=$status"; echo "stop_ms=$(( (t1 - t0) / 1000000 ))"
            # record started with meter and has waited as long; its plugin is loaded.
            until_true 20 grep -q libasound_module_pcm_pipewire /proc/$recorder/maps
            t0=$(date +%s%N); kill -TERM $recorder; wait $recorder; status=$?; t1=$(date +%s%N)
            echo "record_status=$status"; echo "record_stop_ms=$(( (t1 - t0) / 1000000 ))"
            """, timeout: .seconds(90))
        withExtendedLifetime(sink) {}
        let stopMilliseconds = Self.value("stop_ms", in: outcome).flatMap(Int.init) ?? -1
        let recordStopMilliseconds = Self.value("record_stop_ms", in: outcome).flatMap(Int.init) ?? -1
        let updates = try String(contentsOfFile: sandbox.file("meter.jsonl"), encoding: .utf8)
            .split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let stalls = updates.compactMap { $0["diagnosis"] as? [String: Any] }.filter { $0["kind"] as? String == "no_audio" }
        let recordError = (try? String(contentsOfFile: sandbox.file("record.err"), encoding: .utf8)) ?? ""
        print("PipeWireTests: unlinked stream: \(stalls.count) no_audio updates of \(updates.count); meter SIGTERM → exit \(Self.value("status", in: outcome) ?? "?") in \(stopMilliseconds) ms; record SIGTERM → exit \(Self.value("record_status", in: outcome) ?? "?") in \(recordStopMilliseconds) ms, \(recordError.debugDescription)")

        #expect(Self.value("status", in: outcome) == "0", "\(outcome)")
        #expect(stopMilliseconds >= 0 && stopMilliseconds < 1000, "meter stopped in \(stopMilliseconds) ms")
        let first = try #require(stalls.first, "\(updates)")
        #expect(first["message"] as? String == "No audio from the input for 2 s: is the audio server running?")
        let seconds = try #require(first["seconds"] as? Double)
        #expect(seconds >= 2 && seconds < 3, "reported once 2 s have passed: \(seconds)")
        #expect(updates.last?["summary"] as? Bool == true, "the summary still comes: \(updates.last ?? [:])")

        #expect(recordStopMilliseconds >= 0 && recordStopMilliseconds < 1000, "record stopped in \(recordStopMilliseconds) ms")
        #expect(Self.value("record_status", in: outcome) == "130", "nothing was recorded: \(outcome) \(recordError)")
        #expect(recordError.contains("interrupted by SIGTERM"), "\(recordError)")
        let listed = try sandbox.run("list", "--json")
        #expect(listed.status == 0 && listed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(listed)")
    }

    /// `gain` through PipeWire's ALSA control plugin, on a virtual microphone: what it sets is
    /// the source node's volume (the plugin's 0–100 % is the cube root of the linear volume) and
    /// mute, and the captured level follows it.
    @Test func gainSetsTheSourceVolumeAndTheCaptureFollows() throws {
        let sandbox = try VoiceMemoSandbox()
        let route = try sandbox.usePipeWireSource()
        defer { withExtendedLifetime(route) {} }
        let source = route.node
        let device = "alsa:" + VoiceMemoSandbox.pipeWireDevice

        let half = try sandbox.run("gain", "--source", device, "50%")
        #expect(half.status == 0, "\(half)")
        #expect(half.standardOutput == "\(device): Capture 50 %, on (mixer vm_pw)\n", "\(half)")
        let state = try #require(source.state(), "pw-dump shows the source")
        #expect(state.volumes.count == 2 && state.volumes.allSatisfy { abs($0 - 0.125) < 0.001 }, "0.5³: \(state)")
        #expect(state.muted == false)

        let mute = try sandbox.run("gain", "--source", device, "mute", "--json")
        #expect(mute.status == 0, "\(mute)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(mute.standardOutput.utf8)) as? [String: Any])
        #expect(json["switch"] as? Bool == false, "\(json)")
        #expect(json["db"] is NSNull, "the PipeWire control has no dB scale")
        #expect(source.state()?.muted == true)
        let unmute = try sandbox.run("gain", "--source", device, "unmute")
        #expect(unmute.standardOutput.hasSuffix("on (mixer vm_pw)\n"), "\(unmute)")
        #expect(source.state()?.muted == false)

        let decibels = try sandbox.run("gain", "--source", device, "+3dB")
        #expect(decibels.status == 1, "\(decibels)")
        #expect(decibels.standardError.contains("no dB scale: give a percentage"), "\(decibels)")

        // A −6 dBFS sine captured at 50 %: 0.125 linear is −18.06 dB, so its peak reads −24.06.
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-6, -6], seconds: 10)
        let metered = try sandbox.shell(Self.helpers + """
            \(Self.feeder) tone.wav 2> play.err & player=$!
            voicememo meter --source alsa:\(VoiceMemoSandbox.pipeWireDevice) --json > meter.jsonl 2> meter.err & pid=$!
            # Measure 1 s of the tone once it is heard.
            until_true 15 eval "grep -q '\\"peak_db\\": -2' meter.jsonl"
            lines=$(wc -l < meter.jsonl)
            until_true 15 eval '[ $(wc -l < meter.jsonl) -gt $(( lines + 20 )) ]'
            kill -INT $pid; wait $pid; echo "status=$?"
            tail -n +$(( lines + 1 )) meter.jsonl | head -n 20 > heard.jsonl
            kill $player 2>/dev/null; wait $player 2>/dev/null
            """, timeout: .seconds(60))
        #expect(Self.value("status", in: metered) == "0", "\(metered)")
        let peaks = try String(contentsOfFile: sandbox.file("heard.jsonl"), encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .flatMap { ($0["channels"] as? [[String: Any]] ?? []).compactMap { $0["peak_db"] as? Double } }
        print("PipeWireTests: gain 50 % through PipeWire: peaks \(peaks.min() ?? .nan)…\(peaks.max() ?? .nan) dBFS of a −6 dBFS sine")
        #expect(peaks.count >= 20, "\(peaks)")
        #expect(peaks.allSatisfy { abs($0 - -24.06) < 0.5 }, "\(peaks)")
    }

    /// `voicememo devices` lists what `arecord -L` lists with PipeWire's plugin configured: the
    /// stock `pipewire` device among them.
    @Test func devicesListThePipeWireDevice() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePipeWire()
        defer { withExtendedLifetime(sink) {} }
        let ours = try sandbox.run("devices")
        #expect(ours.status == 0, "\(ours)")
        #expect(ours.standardOutput.contains("\n  pipewire\n"), "\(ours)")
        #expect(ours.standardOutput.contains("PipeWire Sound Server"), "\(ours)")
        let arecord = try sandbox.shell("arecord -L 2>/dev/null | grep -v '^ '")
        for name in arecord.standardOutput.split(separator: "\n") {
            #expect(ours.standardOutput.contains("\n  \(name)\n"), "\(name) is listed")
        }
    }
}

/// Where the played samples are in a recording, and how many of them differ there.
struct BitExactMatch: CustomStringConvertible {
    /// The recording's frame where the played file's first frame is.
    let offsetFrames: Int
    /// How many samples were compared (all the played ones that fit in the recording).
    let compared: Int
    /// How many of them differ.
    let differing: Int
    /// How many of those are not silence in the recording: a sample changed, not a sample the
    /// audio server never had (see `dropoutFrames`).
    let altered: Int

    /// Frames that came out as silence where sound was played, in place (the timeline kept):
    /// a graph cycle in which the *feeding* client (`aplay`, a normal-priority process on a
    /// loaded 2-core machine) was late, so the null sink got silence for it. The recorder
    /// wrote what the sink's monitor held; it reports its own losses as overruns and lost
    /// frames, and a frame it lost would shift everything after it, not leave a hole.
    var dropoutFrames: Int { (differing - altered) / 2 }
    /// Frames with a changed sample (not silence) that are not within one graph cycle (1024
    /// frames) of a dropout's silence: what the recorder itself could have changed. Around a
    /// dropout the sink's cycle can hold part of the late feeder's block (seen once in a
    /// fresh-clone run: 1024 changed frames beside 2048 of silence, no shift, no overrun);
    /// anywhere else a changed frame is the recorder's.
    let alteredAwayFromDropouts: Int
    /// Frames with a changed sample (not silence), wherever they are.
    let alteredFrames: Int

    /// Finds the first 64 samples of sound of `played` (past its silent lead-in) in `recorded`,
    /// frame-aligned; nil when they are not there.
    init?(played: [Int16], recorded: [Int16], channels: Int) {
        guard let firstSound = played.firstIndex(where: { $0 != 0 }) else { return nil }
        let start = firstSound - firstSound % channels
        let probe = 64
        guard played.count >= start + probe, recorded.count >= probe else { return nil }
        var found: Int?
        var position = 0
        while position + probe <= recorded.count {
            if recorded[position] == played[start],
                recorded[position..<(position + probe)].elementsEqual(played[start..<(start + probe)])
            {
                found = position
                break
            }
            position += channels
        }
        guard let at = found, at >= start else { return nil }
        let base = at - start
        let count = min(played.count, recorded.count - base)
        offsetFrames = base / channels
        compared = count
        differing = (0..<count).reduce(0) { $0 + (played[$1] == recorded[base + $1] ? 0 : 1) }
        altered = (0..<count).reduce(0) { $0 + (played[$1] != recorded[base + $1] && recorded[base + $1] != 0 ? 1 : 0) }
        var silentFrames: [Int] = []
        var changedFrames: [Int] = []
        for frame in 0..<(count / channels) {
            let samples = (frame * channels)..<(frame * channels + channels)
            guard samples.contains(where: { played[$0] != recorded[base + $0] }) else { continue }
            if samples.contains(where: { played[$0] != recorded[base + $0] && recorded[base + $0] != 0 }) {
                changedFrames.append(frame)
            } else {
                silentFrames.append(frame)
            }
        }
        alteredFrames = changedFrames.count
        // silentFrames is sorted: the nearest dropout frame by binary search.
        func nearDropout(_ frame: Int) -> Bool {
            var low = 0, high = silentFrames.count
            while low < high {
                let middle = (low + high) / 2
                if silentFrames[middle] < frame { low = middle + 1 } else { high = middle }
            }
            let neighbours = [low - 1, low].filter { silentFrames.indices.contains($0) }
            return neighbours.contains { abs(silentFrames[$0] - frame) <= 1024 }
        }
        alteredAwayFromDropouts = changedFrames.filter { !nearDropout($0) }.count
    }

    var description: String {
        "played file at frame \(offsetFrames) of the recording; \(differing) of \(compared) samples differ, "
            + "\(altered) of them not silence (\(dropoutFrames) frames of feeder dropout; \(alteredFrames) changed frames, "
            + "\(alteredAwayFromDropouts) of them away from a dropout)"
    }
}

/// Where a recording is in a reference capture of the same source, and how many of its
/// samples differ there: the recorder's own losses and changes, whatever the source did.
struct ReferenceMatch: CustomStringConvertible {
    /// The reference's frame where the recording's first frame is.
    let offsetFrames: Int
    /// How many samples of the recording were compared (those the reference also holds).
    let compared: Int
    /// How many of them differ.
    let differing: Int
    /// The recording's first frame that differs, if one does.
    let firstDifferingFrame: Int?

    /// Finds the recording's first 256 samples of sound in `reference`, frame-aligned, and
    /// compares the whole recording there; nil when the recording has no sound, or its sound
    /// is not in the reference, or the reference started after the recording.
    init?(recorded: [Int16], reference: [Int16], channels: Int) {
        let probe = 256
        guard let firstSound = recorded.firstIndex(where: { $0 != 0 }) else { return nil }
        let start = firstSound - firstSound % channels
        guard recorded.count >= start + probe else { return nil }
        let sound = recorded[start..<(start + probe)]
        var position = 0
        var found: Int?
        while position + probe <= reference.count {
            if reference[position] == sound.first, reference[position..<(position + probe)].elementsEqual(sound) {
                found = position
                break
            }
            position += channels
        }
        guard let at = found, at >= start else { return nil }
        let base = at - start
        offsetFrames = base / channels
        compared = min(recorded.count, reference.count - base)
        let differences = (0..<compared).filter { recorded[$0] != reference[base + $0] }
        differing = differences.count
        firstDifferingFrame = differences.first.map { $0 / channels }
    }

    var description: String {
        "recording at frame \(offsetFrames) of the reference; \(differing) of \(compared) samples differ"
            + (firstDifferingFrame.map { ", the first at frame \($0) of the recording" } ?? "")
    }
}

/// `ReferenceMatch` sees the recorder's changes and losses, and not the source's gaps.
@Suite struct ReferenceMatchTests {
    @Test func theSourcesSilenceIsInBothAChangeOrALossIsNot() throws {
        var reference = [Int16](repeating: 0, count: 2 * 700) + BitExactMatchTests.noise(20_000)
        for sample in (2 * 5_000)..<(2 * 8_000) { reference[sample] = 0 }
        let recorded = Array(reference[(2 * 300)..<(2 * 18_000)])
        let same = try #require(ReferenceMatch(recorded: recorded, reference: reference, channels: 2))
        #expect(same.offsetFrames == 300 && same.differing == 0 && same.compared == recorded.count, "\(same)")

        var changed = recorded
        changed[2 * 12_000 + 1] &+= 1
        let one = try #require(ReferenceMatch(recorded: changed, reference: reference, channels: 2))
        #expect(one.differing == 1 && one.firstDifferingFrame == 12_000, "\(one)")

        var lost = recorded
        lost.removeSubrange((2 * 10_000)..<(2 * 10_001))
        let shifted = try #require(ReferenceMatch(recorded: lost, reference: reference, channels: 2))
        #expect(shifted.differing > 1_000 && shifted.firstDifferingFrame == 10_000, "\(shifted)")

        #expect(ReferenceMatch(recorded: recorded, reference: Array(reference[(2 * 1_000)...]), channels: 2) == nil,
            "a reference that started after the recording's first sound")
    }
}

/// `BitExactMatch` tells a feeder dropout (silence in place, a cycle beside it holding part of
/// the late block) from a sample the recorder changed.
@Suite struct BitExactMatchTests {
    static func noise(_ frames: Int) -> [Int16] {
        var state: UInt64 = 0x5EED
        return (0..<(frames * 2)).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int16(truncatingIfNeeded: Int64(state >> 48) - 32768) | 1
        }
    }

    @Test func aDropoutAndTheCycleBesideItAreTheFeedersAChangeElsewhereIsNot() throws {
        let played = Self.noise(20_000)
        var recorded = [Int16](repeating: 0, count: 2 * 500) + played
        // 2048 frames of silence from frame 5000, then 1024 frames of the block a little off.
        for sample in (2 * (500 + 5000))..<(2 * (500 + 7048)) { recorded[sample] = 0 }
        for sample in (2 * (500 + 7048))..<(2 * (500 + 8072)) { recorded[sample] = recorded[sample] &+ 3 }
        let feeder = try #require(BitExactMatch(played: played, recorded: recorded, channels: 2))
        #expect(feeder.offsetFrames == 500 && feeder.dropoutFrames == 2048 && feeder.alteredFrames == 1024)
        #expect(feeder.alteredAwayFromDropouts == 0, "\(feeder)")

        recorded[2 * (500 + 15_000)] = recorded[2 * (500 + 15_000)] &+ 1
        let changed = try #require(BitExactMatch(played: played, recorded: recorded, channels: 2))
        #expect(changed.alteredAwayFromDropouts == 1, "\(changed)")
    }
}
