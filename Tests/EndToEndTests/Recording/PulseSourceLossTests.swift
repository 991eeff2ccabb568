import Foundation
import TestSupport
import Testing

/// A sound server's source removed while `record` records it (`pactl unload-module` of a
/// "microphone" of the test's own, on the suite's daemon, while a tone plays into it): with
/// `on_source_lost = stop` (the default) the memo keeps what came before and the message names
/// the source; with `on_source_lost = default` the memo goes on from the server's default
/// source and the gap is said, logged and kept as a marker.
@Suite struct PulseSourceLossTests {
    /// Plays a tone into `microphone`, records it (with `arguments` after `record`) until about
    /// 1 s is recorded, unloads the source's module, and waits for `record` to end. Prints
    /// `status=`, `before=` (frames recorded just before the removal).
    static func recordAndUnplug(
        _ microphone: PulseTestMicrophone, in sandbox: VoiceMemoSandbox, _ arguments: String
    ) throws -> (status: Int?, before: Int?, standardError: String) {
        try TestSignals.writeSines(to: sandbox.file("tone.wav"), levels: [-12, -12], seconds: 30)
        let outcome = try sandbox.shell("""
            paplay -d \(microphone.feed) --latency-msec=20 tone.wav & player=$!
            recorded() { tail -n 1 events.txt 2>/dev/null | grep -oE 'recorded [0-9]+' | grep -oE '[0-9]+' || echo 0; }
            VOICEMEMO_EVENT_LOG=events.txt voicememo record --source pulse:\(microphone.source) --format wav \\
                --rate 48000 --channels 2 \(arguments) > rec.out 2> rec.err & rec=$!
            wait_until 15 "1 s recorded" eval '[ "$(recorded)" -ge 48000 ]' || { kill $rec $player; exit 5; }
            echo "before=$(recorded)"
            module=$(pactl list modules short | grep "source_name=\(microphone.source)" | cut -f1)
            pactl unload-module "$module" || exit 6
            wait $rec; echo "status=$?"
            kill $player 2>/dev/null; wait $player 2>/dev/null
            exit 0
            """, timeout: .seconds(60))
        let lines = outcome.standardOutput.split(separator: "\n")
        func value(_ name: String) -> Int? {
            lines.first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) }
        }
        let standardError = (try? String(contentsOfFile: sandbox.file("rec.err"), encoding: .utf8)) ?? ""
        #expect(outcome.status == 0, "\(outcome) \(standardError)")
        return (value("status"), value("before"), standardError)
    }

    @Test func withStopTheMemoKeepsWhatCameBeforeAndTheMessageNamesTheSource() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        let (status, before, standardError) = try Self.recordAndUnplug(microphone, in: sandbox, "--title Unplugged")
        #expect(status == 1, "a removed source ends the recording as a failure: \(standardError)")
        #expect(
            standardError.contains("the source \"\(microphone.source)\" was removed from the sound server at \(microphone.server)"),
            "\(standardError)")
        #expect(standardError.contains("(kept "), "\(standardError)")
        let memo = try #require(try sandbox.listedMemos().first, "the memo is kept")
        let frames = try #require(memo["frames"] as? Int)
        let recordedBefore = try #require(before)
        // Everything up to the removal: what was logged before it, and at most the half
        // second the server and the ring still held.
        #expect(frames >= recordedBefore && frames <= recordedBefore + 24_000, "\(frames) frames, \(recordedBefore) before")
        #expect(memo["title"] as? String == "Unplugged")
    }

    @Test func withDefaultTheMemoGoesOnFromTheDefaultSourceAndTheGapIsReported() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        try sandbox.writeConfig("on_source_lost = default\n")
        let (status, before, standardError) = try Self.recordAndUnplug(microphone, in: sandbox, "--duration 3s")
        #expect(status == 0, "\(standardError)")
        // The suite's daemon's default source is its null sink's monitor.
        let said = "pulse:\(microphone.source) went away; going on from pulse:vsink.monitor (the default source) after a gap of "
        let line = try #require(standardError.split(separator: "\n").first { $0.contains(said) }, "\(standardError)")
        let gap = try #require(Double(line.components(separatedBy: said).last?.dropLast(2) ?? ""), "\(line)")
        #expect(gap >= 0 && gap < 2, "\(line)")

        let memos = try sandbox.listedMemos()
        #expect(memos.count == 1, "one memo: \(memos)")
        let memo = try #require(memos.first)
        let frames = try #require(memo["frames"] as? Int)
        #expect(frames == 144_000 && frames > (before ?? .max), "the whole 3 s, in the same memo: \(frames), \(before ?? -1) before")
        let markers = try #require(memo["markers"] as? [[String: Any]], "\(memo)")
        let marker = try #require(markers.first, "the gap is kept as a marker: \(memo)")
        #expect((marker["label"] as? String)?.hasPrefix("pulse:\(microphone.source) went away: ") == true, "\(marker)")
        let time = try #require(marker["time"] as? Double)
        #expect(time >= Double(before ?? 0) / 48_000 && time < 3, "\(marker)")

        let events = (try? String(contentsOfFile: sandbox.file("events.txt"), encoding: .utf8)) ?? ""
        #expect(events.contains("source_lost lost=pulse:\(microphone.source) continued=pulse:vsink.monitor gap="), "\(events)")
    }

    /// `record --vox` on a source removed mid-take under `on_source_lost = default` goes on
    /// listening from the default source, says which source went away, and the take it fell in
    /// keeps a marker where it happened.
    @Test func voiceActivationGoesOnFromTheDefaultSourceAndTheTakeKeepsAMarker() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        try sandbox.writeConfig("on_source_lost = default\n")
        let outcome = try sandbox.shell("""
            espeak-ng -w phrase.wav "the quarterly budget is ready for the meeting on thursday afternoon" || exit 4
            sox phrase.wav -r 48000 -c 2 speech.wav repeat 4 || exit 4
            paplay -d \(microphone.feed) --latency-msec=20 speech.wav & player=$!
            voicememo record --vox --vox-silence 1s --source pulse:\(microphone.source) --format wav \\
                --rate 48000 --channels 2 --duration 8s > rec.out 2> rec.err & rec=$!
            wait_until 15 "a take" eval 'ls library/*.wav > /dev/null 2>&1' || { kill $rec $player; exit 5; }
            sleep 1
            module=$(pactl list modules short | grep "source_name=\(microphone.source)" | cut -f1)
            pactl unload-module "$module" || exit 6
            wait $rec; echo "status=$?"
            kill $player 2>/dev/null; wait $player 2>/dev/null
            cat rec.err >&2
            exit 0
            """, timeout: .seconds(60))
        #expect(outcome.status == 0 && outcome.standardOutput.contains("status=0"), "\(outcome)")
        #expect(
            outcome.standardError.contains("pulse:\(microphone.source) went away; going on from pulse:vsink.monitor"), "\(outcome)")
        let memos = try sandbox.listedMemos()
        let marked = memos.compactMap { memo in (memo["markers"] as? [[String: Any]])?.first }
        #expect(marked.count == 1, "the take the removal fell in keeps one marker: \(memos)")
        let marker = try #require(marked.first)
        #expect((marker["label"] as? String)?.hasPrefix("pulse:\(microphone.source) went away: ") == true, "\(marker)")
        #expect((marker["time"] as? Double).map { $0 > 0.5 && $0 < 8 } == true, "\(marker)")
    }

    /// `meter` on a source removed under `on_source_lost = default` goes on from the default
    /// source to its duration and says which source went away.
    @Test func meterGoesOnFromTheDefaultSourceAndSaysSo() throws {
        let microphone = try PulseTestMicrophone(description: "USB Headset Mono")
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["PULSE_SERVER"] = microphone.server
        try sandbox.writeConfig("on_source_lost = default\n")
        let outcome = try sandbox.shell("""
            voicememo meter --source pulse:\(microphone.source) --duration 2s --json > meter.json 2> meter.err & meter=$!
            seconds() { tail -n 1 meter.json 2>/dev/null | grep -oE '"t": *[0-9]+' | grep -oE '[0-9]+$' || echo 0; }
            wait_until 15 "1 s metered" eval '[ "$(seconds)" -ge 1 ]' || { kill $meter; exit 5; }
            module=$(pactl list modules short | grep "source_name=\(microphone.source)" | cut -f1)
            pactl unload-module "$module" || exit 6
            wait $meter; echo "status=$?"
            cat meter.err >&2
            exit 0
            """, timeout: .seconds(60))
        #expect(outcome.standardOutput.contains("status=0"), "\(outcome)")
        #expect(
            outcome.standardError.contains("pulse:\(microphone.source) went away; going on from pulse:vsink.monitor"), "\(outcome)")
    }

    /// A value `on_source_lost` does not take stops `record` before anything opens, naming
    /// the key and the values it takes.
    @Test func aBadValueIsRefusedNamingWhatIsAllowed() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig("on_source_lost = retry\n")
        let outcome = try sandbox.run("record", "--source", "tone:440@-12", "--duration", "1s")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("on_source_lost"), "\(outcome)")
        #expect(outcome.standardError.contains("stop") && outcome.standardError.contains("default"), "\(outcome)")
        #expect(try sandbox.listedMemos().isEmpty)
    }
}
