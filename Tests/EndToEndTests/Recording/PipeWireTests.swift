import Foundation
import TestSupport
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
    /// Neither it nor a capture client is a perfect party on a loaded 2-core machine: a client
    /// of the graph sometimes misses a cycle (1024 or 2048 frames, 21–43 ms). For the feeder
    /// the sink then mixes silence, or part of the late block (seen: 1024 to 4096 frames of
    /// silence in place and 15 cycles a little off, with a 4 s ALSA buffer as with aplay's own
    /// 0.5 s — so not its buffer running dry); for a capture client the plugin hands the
    /// application a cycle of silence in place, with no overrun and no frame missing (seen in
    /// CI: 2048 frames of silence in the recording, 0 overruns, where the reference capture
    /// beside it had the noise). So the recorder is compared with ``referenceStart``'s capture
    /// of the same monitor, which holds the feeder's gaps too, and a frame may differ from it
    /// only where one of the two holds a silent cycle (``ReferenceMatch/silencedFrames``):
    /// what the recorder could get wrong — a changed sample, a lost or an added frame — shows
    /// as sound against different sound (``ReferenceMatch/changedFrames``), which must not be.
    static let feeder = "aplay -q -D \(VoiceMemoSandbox.pipeWireDevice)"

    /// How many frames a recording may hold as a silent cycle the reference has as sound, or
    /// the other way round: 1 s in all (23 cycles of 2048 frames), far above the 0–2048 frames
    /// seen, so that a machine in trouble passes and a recording that fell silent does not.
    static let silencedCyclesBound = 48_000

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
        // Every frame is what the server had, as one witness or the other holds it, or a cycle
        // it gave the recorder as silence; none changed, lost or added (see `feeder`).
        let inReference = try #require(same, "the recording is in the reference capture")
        let found = try #require(match, "the played noise is in the recording")
        #expect(found.compared == played.samples.count, "the whole file was heard: \(found)")
        let account = RecordingAccount(recorded: recorded.samples, played: played.samples, reference: reference.samples,
                                       channels: 2, playedAt: found.offsetFrames, referenceAt: inReference.offsetFrames)
        print("PipeWireTests: 20 s from a PipeWire monitor, accounted for: \(account)")
        #expect(account.changed == 0, "\(account)")
        #expect(account.silenced <= Self.silencedCyclesBound, "\(account)")
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
        let account = RecordingAccount(recorded: recorded.samples, played: played.samples, reference: reference.samples,
                                       channels: 2, playedAt: match.offsetFrames, referenceAt: same.offsetFrames)
        print("PipeWireTests: record through PipeWire, SIGTERM, accounted for: \(account)")
        #expect(account.changed == 0, "unchanged up to the stop: \(account)")
        #expect(account.silenced <= Self.silencedCyclesBound, "\(account)")
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
        let ours = try sandbox.run("devices", "--all")
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
    /// Differing frames where one of the two captures holds digital silence (every channel 0)
    /// and the other sound: a graph cycle the server gave one client as silence (see
    /// `PipeWireTests.feeder`). Neither a lost nor an added frame makes these: after either,
    /// both captures hold sound, shifted.
    let silencedFrames: Int
    /// Differing frames where both captures hold sound: a sample changed, or the recording
    /// shifted by a frame it lost or added.
    let changedFrames: Int
    /// The differing runs where one side is silent, as (first frame, length) in the
    /// recording, for the description.
    let silencedRuns: [(start: Int, frames: Int)]

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
        compared = min(recorded.count, reference.count - base) / channels * channels
        var differing = 0
        var first: Int?
        var silenced = 0
        var changed = 0
        var runs: [(start: Int, frames: Int)] = []
        for frame in 0..<(compared / channels) {
            let here = frame * channels
            let mine = recorded[here..<(here + channels)]
            let theirs = reference[(base + here)..<(base + here + channels)]
            let samples = zip(mine, theirs).filter { $0 != $1 }.count
            guard samples > 0 else { continue }
            differing += samples
            if first == nil { first = frame }
            if mine.allSatisfy({ $0 == 0 }) || theirs.allSatisfy({ $0 == 0 }) {
                silenced += 1
                if let last = runs.last, last.start + last.frames == frame {
                    runs[runs.count - 1].frames += 1
                } else {
                    runs.append((frame, 1))
                }
            } else {
                changed += 1
            }
        }
        self.differing = differing
        firstDifferingFrame = first
        silencedFrames = silenced
        changedFrames = changed
        silencedRuns = runs
    }

    var description: String {
        "recording at frame \(offsetFrames) of the reference; \(differing) of \(compared) samples differ"
            + (firstDifferingFrame.map { ", the first at frame \($0) of the recording" } ?? "")
            + (differing == 0 ? "" : "; \(changedFrames) frame(s) changed, \(silencedFrames) silent in one capture only"
                + (silencedRuns.isEmpty ? "" : " (" + silencedRuns.prefix(8).map { "\($0.frames) from \($0.start)" }.joined(separator: ", ")
                    + (silencedRuns.count > 8 ? ", …" : "") + ")"))
    }
}

/// Accounts for every frame of a capture through PipeWire with two imperfect witnesses of
/// what the server delivered (see `PipeWireTests.feeder`): the played file, and a reference
/// capture of the same monitor by another client. Either can be wrong in places: the feeder
/// misses cycles (silence or a late block in place, or under heavy load the rest shifted), the
/// reference's client gets a silent cycle or loses frames itself. A frame of the recording is
/// accounted for when it is the played file's at the current lag (silence outside the file),
/// or the reference's at its current offset, or silence (a cycle the server gave the recorder
/// as silence). A witness finds its place again (within ±1 s) only from frames the other one
/// confirms, so what the recorder could get wrong — a changed sample, a lost or an added frame
/// — is a frame neither holds, and after a loss or an addition every frame of sound is.
struct RecordingAccount: CustomStringConvertible {
    private(set) var frames = 0
    private(set) var byBoth = 0
    private(set) var byPlayedOnly = 0
    private(set) var byReferenceOnly = 0
    /// Silent frames neither witness holds: a cycle the server gave the recorder as silence.
    private(set) var silenced = 0
    /// Frames of sound neither witness holds: the recorder's fault.
    private(set) var changed = 0
    private(set) var firstChanged: Int?
    /// How often each witness was found again at another place (its own shift).
    private(set) var playedShifts = 0
    private(set) var referenceShifts = 0

    /// `playedAt`: the recording's frame where the played file's first frame is;
    /// `referenceAt`: the reference's frame where the recording's first frame is.
    init(recorded: [Int16], played: [Int16], reference: [Int16], channels: Int, playedAt: Int, referenceAt: Int) {
        let window = 48_000, probe = 64, retry = 1024
        let frameCount = recorded.count / channels
        frames = frameCount
        var playedLag = playedAt
        var referenceOffset = referenceAt
        var nextPlayedTry = 0
        var nextReferenceTry = 0

        func silent(_ frame: Int) -> Bool {
            (0..<channels).allSatisfy { recorded[frame * channels + $0] == 0 }
        }
        /// The recording's `frame` against `witness`'s frame `at`; outside the witness,
        /// `outside` (the played file: silence before and after; the reference: unknown).
        func holds(_ witness: [Int16], _ at: Int, _ frame: Int, outside silence: Bool) -> Bool {
            guard at >= 0, (at + 1) * channels <= witness.count else { return silence && silent(frame) }
            return (0..<channels).allSatisfy { recorded[frame * channels + $0] == witness[at * channels + $0] }
        }
        /// Where the recording's frames from `frame` are in `witness`, within the window
        /// around `expected`; nil when the probe holds silence or is not found.
        func find(in witness: [Int16], from frame: Int, near expected: Int) -> Int? {
            guard frame + probe <= frameCount, !(frame..<(frame + probe)).contains(where: silent) else { return nil }
            let first = recorded[frame * channels]
            let lower = max(0, expected - window), upper = min(witness.count / channels - probe, expected + window)
            guard lower <= upper else { return nil }
            let distances = (0...window).lazy.flatMap { [expected - $0, expected + $0] }
            for at in distances where at >= lower && at <= upper && witness[at * channels] == first {
                if (0..<(probe * channels)).allSatisfy({ recorded[frame * channels + $0] == witness[at * channels + $0] }) {
                    return at
                }
            }
            return nil
        }

        for frame in 0..<frameCount {
            let inPlayed = holds(played, frame - playedLag, frame, outside: true)
            let inReference = holds(reference, frame + referenceOffset, frame, outside: false)
            switch (inPlayed, inReference) {
            case (true, true):
                byBoth += 1
            case (true, false):
                byPlayedOnly += 1
                if frame >= nextReferenceTry, !silent(frame) {
                    if let at = find(in: reference, from: frame, near: frame + referenceOffset), at - frame != referenceOffset {
                        referenceOffset = at - frame
                        referenceShifts += 1
                    } else {
                        nextReferenceTry = frame + retry
                    }
                }
            case (false, true):
                byReferenceOnly += 1
                if frame >= nextPlayedTry {
                    if let at = find(in: played, from: frame, near: frame - playedLag), frame - at != playedLag {
                        playedLag = frame - at
                        playedShifts += 1
                    } else {
                        nextPlayedTry = frame + retry
                    }
                }
            case (false, false):
                if silent(frame) {
                    silenced += 1
                } else {
                    changed += 1
                    if firstChanged == nil { firstChanged = frame }
                }
            }
        }
    }

    var description: String {
        "\(frames) frames: \(byBoth) in both witnesses, \(byPlayedOnly) in the played file only, \(byReferenceOnly) in the reference only"
            + " (the played file found again \(playedShifts)×, the reference \(referenceShifts)×); \(silenced) silent in neither, "
            + "\(changed) of sound in neither" + (firstChanged.map { ", the first at frame \($0)" } ?? "")
    }
}

/// `RecordingAccount` takes each witness's faults as the witness's and the recorder's as its own.
@Suite struct RecordingAccountTests {
    static let played = BitExactMatchTests.noise(30_000)
    /// The monitor: 1000 frames of silence, the played file, 2000 of silence.
    static let monitor = [Int16](repeating: 0, count: 2 * 1_000) + played + [Int16](repeating: 0, count: 2 * 2_000)

    static func account(_ recorded: [Int16], reference: [Int16] = monitor, referenceAt: Int = 0, playedAt: Int = 1_000) -> RecordingAccount {
        RecordingAccount(recorded: recorded, played: played, reference: reference, channels: 2, playedAt: playedAt, referenceAt: referenceAt)
    }

    static func silence(_ samples: inout [Int16], frames: Range<Int>) {
        for sample in (2 * frames.lowerBound)..<(2 * frames.upperBound) { samples[sample] = 0 }
    }

    @Test func aPerfectRecordingIsInBoth() {
        let whole = Self.account(Self.monitor)
        #expect(whole.byBoth == 33_000 && whole.changed == 0 && whole.silenced == 0, "\(whole)")
        // The reference started earlier.
        let later = Self.account(Self.monitor, reference: [Int16](repeating: 0, count: 2 * 300) + Self.monitor, referenceAt: 300)
        #expect(later.byBoth == 33_000, "\(later)")
    }

    @Test func theWitnessesFaultsAreTheirs() {
        // The feeder missed a cycle: silence in place, in both captures.
        var dropout = Self.monitor
        Self.silence(&dropout, frames: 5_000..<6_024)
        let feederGap = Self.account(dropout, reference: dropout)
        #expect(feederGap.changed == 0 && feederGap.byReferenceOnly == 1_024, "\(feederGap)")

        // The feeder's rest came 1024 frames early (its cycle lost): both captures shifted.
        var shifted = Self.monitor
        shifted.removeSubrange((2 * 8_000)..<(2 * 9_024))
        let feederShift = Self.account(shifted, reference: shifted)
        #expect(feederShift.changed == 0 && feederShift.playedShifts == 1 && feederShift.byBoth > 30_000, "\(feederShift)")

        // The reference lost 700 frames, and later got a silent cycle.
        var reference = Self.monitor
        reference.removeSubrange((2 * 12_000)..<(2 * 12_700))
        Self.silence(&reference, frames: 20_000..<21_024)
        let referenceFaults = Self.account(Self.monitor, reference: reference)
        #expect(referenceFaults.changed == 0 && referenceFaults.referenceShifts == 1 && referenceFaults.byPlayedOnly >= 1_024, "\(referenceFaults)")

        // The server gave the recorder a silent cycle.
        var silenced = Self.monitor
        Self.silence(&silenced, frames: 15_000..<17_048)
        let gap = Self.account(silenced)
        #expect(gap.changed == 0 && gap.silenced == 2_048, "\(gap)")
    }

    @Test func theRecordersFaultsAreFound() {
        var changed = Self.monitor
        changed[2 * 14_000 + 1] &+= 1
        let one = Self.account(changed)
        #expect(one.changed == 1 && one.firstChanged == 14_000, "\(one)")

        var lost = Self.monitor
        lost.removeSubrange((2 * 10_000)..<(2 * 10_001))
        let loss = Self.account(lost)
        #expect(loss.changed > 20_000 && loss.firstChanged == 10_000 && loss.playedShifts == 0 && loss.referenceShifts == 0, "\(loss)")

        var added = Self.monitor
        added.insert(contentsOf: [7, 7], at: 2 * 10_000)
        let addition = Self.account(added)
        #expect(addition.changed > 20_000 && addition.firstChanged == 10_000, "\(addition)")

        // A loss where the feeder also dropped a cycle is still the recorder's.
        var both = Self.monitor
        Self.silence(&both, frames: 5_000..<6_024)
        let reference = both
        both.removeSubrange((2 * 6_500)..<(2 * 6_510))
        let lossBesideAGap = Self.account(both, reference: reference)
        #expect(lossBesideAGap.changed > 20_000, "\(lossBesideAGap)")
    }
}

/// `ReferenceMatch` sees the recorder's changes, losses and additions as changed frames, and
/// the source's gaps and a cycle the server gave one client as silence as neither.
@Suite struct ReferenceMatchTests {
    @Test func theSourcesSilenceAndASilencedCycleAreNotChangesALossOrAnAdditionIs() throws {
        var reference = [Int16](repeating: 0, count: 2 * 700) + BitExactMatchTests.noise(20_000)
        for sample in (2 * 5_000)..<(2 * 8_000) { reference[sample] = 0 }
        let recorded = Array(reference[(2 * 300)..<(2 * 18_000)])
        let same = try #require(ReferenceMatch(recorded: recorded, reference: reference, channels: 2))
        #expect(same.offsetFrames == 300 && same.differing == 0 && same.compared == recorded.count, "\(same)")

        var changed = recorded
        changed[2 * 12_000 + 1] &+= 1
        let one = try #require(ReferenceMatch(recorded: changed, reference: reference, channels: 2))
        #expect(one.differing == 1 && one.firstDifferingFrame == 12_000, "\(one)")
        #expect(one.changedFrames == 1 && one.silencedFrames == 0, "\(one)")

        var lost = recorded
        lost.removeSubrange((2 * 10_000)..<(2 * 10_001))
        let shifted = try #require(ReferenceMatch(recorded: lost, reference: reference, channels: 2))
        #expect(shifted.differing > 1_000 && shifted.firstDifferingFrame == 10_000, "\(shifted)")
        #expect(shifted.changedFrames > 1_000, "a lost frame shifts the sound after it: \(shifted)")

        var added = recorded
        added.insert(contentsOf: [7, 7], at: 2 * 10_000)
        let later = try #require(ReferenceMatch(recorded: added, reference: reference, channels: 2))
        #expect(later.changedFrames > 1_000 && later.firstDifferingFrame == 10_000, "\(later)")

        // A cycle the server gave the recorder as silence, and one it gave the reference so.
        var silenced = recorded
        for sample in (2 * 9_000)..<(2 * 11_048) { silenced[sample] = 0 }
        var gappedReference = reference
        for sample in (2 * (300 + 14_000))..<(2 * (300 + 15_024)) { gappedReference[sample] = 0 }
        let gaps = try #require(ReferenceMatch(recorded: silenced, reference: gappedReference, channels: 2))
        #expect(gaps.changedFrames == 0 && gaps.silencedFrames == 2048 + 1024, "\(gaps)")
        #expect(gaps.silencedRuns.map(\.frames) == [2048, 1024] && gaps.silencedRuns.map(\.start) == [9_000, 14_000], "\(gaps)")

        #expect(ReferenceMatch(recorded: recorded, reference: Array(reference[(2 * 1_000)...]), channels: 2) == nil,
            "a reference that started after the recording's first sound")
    }
}

/// `BitExactMatch` tells a feeder dropout (silence in place, a cycle beside it holding part of
/// the late block) from a sample the recorder changed.
@Suite struct BitExactMatchTests {
    static func noise(_ frames: Int) -> [Int16] {
        var generator = SplitMix64(seed: 0x5EED)
        return (0..<(frames * 2)).map { _ in Int16(truncatingIfNeeded: Int64(generator.next() >> 48) - 32768) | 1 }
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
