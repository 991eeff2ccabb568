import Foundation
import Testing

/// `voicememo play URL`: streams from a loopback server the test starts (Tests/stream-server.py),
/// played into the ALSA file test device (plug → S16_LE 48 kHz stereo → played.raw).
@Suite struct StreamPlayTests {
    /// A sandbox with the test devices, the server and its files: 3 s of stereo noise at 48 kHz as
    /// WAV and FLAC (and the raw samples), a 10 s 440 Hz MP3 at 128 kbit/s (16 000 bytes/s).
    private func setUp(tls: Bool = false) throws -> (VoiceMemoSandbox, StreamTestServer, reference: Data) {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.installALSATestDevices(captureFile: "/dev/null", playbackFile: sandbox.file("played.raw"))
        try FileManager.default.createDirectory(atPath: sandbox.file("www"), withIntermediateDirectories: true)
        var script = """
            set -e
            ffmpeg -nostdin -loglevel error -f lavfi -i "anoisesrc=d=3:a=0.3:seed=7" -ac 2 -ar 48000 -c:a pcm_s16le www/noise.wav
            ffmpeg -nostdin -loglevel error -i www/noise.wav -c:a flac www/noise.flac
            ffmpeg -nostdin -loglevel error -i www/noise.wav -f s16le reference.raw
            ffmpeg -nostdin -loglevel error -f lavfi -i "sine=f=440:d=10" -ac 2 -ar 48000 -b:a 128k www/tone.mp3
            """
        if tls {
            script += """

                openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=VoiceMemo Test CA" 2>/dev/null
                openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=127.0.0.1" 2>/dev/null
                printf "subjectAltName=IP:127.0.0.1\\n" > san.cnf
                openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.cnf 2>/dev/null
                """
        }
        let made = try sandbox.shell(script)
        try #require(made.status == 0, "\(made)")
        let server = try StreamTestServer(
            root: sandbox.file("www"), tls: tls ? (sandbox.file("server.pem"), sandbox.file("server.key")) : nil)
        return (sandbox, server, try Data(contentsOf: URL(fileURLWithPath: sandbox.file("reference.raw"))))
    }

    private func played(_ sandbox: VoiceMemoSandbox) -> Data? {
        try? Data(contentsOf: URL(fileURLWithPath: sandbox.file("played.raw")))
    }

    @Test(arguments: ["noise.flac", "noise.wav"])
    func fileWithALengthPlaysSampleForSample(name: String) throws {
        let (sandbox, server, reference) = try setUp()
        let outcome = try sandbox.run("play", server.url("files/" + name), "--device", "voicememo_playback")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(played(sandbox) == reference, "what was played is the decoded file, bit for bit")
        #expect(outcome.standardError.contains("buffering"), "\(outcome)")
    }

    @Test func redirectIsFollowed() throws {
        let (sandbox, server, reference) = try setUp()
        let outcome = try sandbox.run("play", server.url("redirect/noise.flac"), "--device", "voicememo_playback")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(played(sandbox) == reference)
    }

    @Test func mp3PlaysItsLength() throws {
        let (sandbox, server, _) = try setUp()
        let outcome = try sandbox.run("play", server.url("files/tone.mp3"), "--device", "voicememo_playback", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains(#""event":"playing","codec":"mp3"#), "\(outcome)")
        #expect(outcome.standardOutput.hasSuffix("{\"event\":\"finished\"}\n"), "\(outcome)")
        let seconds = Double(played(sandbox)?.count ?? 0) / (48_000 * 4)
        // An MP3 decodes to its length plus the encoder's padding (at most two 1152-frame frames).
        #expect(seconds >= 10 && seconds < 10.06, "played \(seconds) s of a 10 s MP3")
    }

    /// The other formats a stream comes in: 2 s of a tone each, played to its end (a lossy
    /// codec's priming may add up to 1280 frames, ADTS AAC having no length to trim it to).
    @Test(arguments: [
        ("tone.aac", "-c:a aac", "aac"), ("tone.m4a", "-c:a aac -movflags +faststart", "aac"),
        ("tone-moov-last.m4a", "-c:a aac", "aac"), ("tone.ogg", "-c:a libvorbis", "vorbis"),
        ("tone.opus", "-c:a libopus", "opus"),
    ])
    func otherFormatsPlayToTheirEnd(name: String, encoder: String, codec: String) throws {
        let (sandbox, server, _) = try setUp()
        let made = try sandbox.shell(
            #"ffmpeg -nostdin -loglevel error -f lavfi -i "sine=f=440:d=2" -ac 2 -ar 48000 \#(encoder) www/\#(name)"#)
        try #require(made.status == 0, "\(made)")
        let outcome = try sandbox.run("play", server.url("files/" + name), "--device", "voicememo_playback", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains(#""event":"playing","codec":"\#(codec)""#), "\(outcome)")
        #expect(outcome.standardOutput.hasSuffix("{\"event\":\"finished\"}\n"), "\(outcome)")
        let frames = (played(sandbox)?.count ?? 0) / 4
        #expect(frames >= 96_000 && frames <= 96_000 + 1280, "played \(frames) frames of a 96 000-frame tone")
    }

    /// Each failure: exit 1, one line naming the cause, nothing played.
    @Test(arguments: [
        ("status/404", [String](), "HTTP 404 Not Found from 127.0.0.1:"),
        ("status/500", [], "HTTP 500 Internal Server Error from 127.0.0.1:"),
        ("loop", [], "redirects in a loop"),
        ("html", [], "replied with an HTML page (text/html; charset=utf-8)"),
        ("files/missing.mp3", [], "HTTP 404 Not Found"),
        ("stall", ["--timeout", "1"], "for 1 s: timed out"),
        // A redirect to another scheme is refused by name (FFmpeg took
        // file:///etc/passwd for a host and said "Invalid argument").
        ("redirect-to?location=file:///etc/passwd", [],
         "redirected to file:///etc/passwd, which is not an http:// or https:// URL: not followed"),
        ("redirect-to?location=ftp://127.0.0.1/tone.mp3", [], "redirected to ftp://127.0.0.1/tone.mp3, which is not"),
        // Header lines for ever (megabytes of icy-* lines that FFmpeg keeps in memory): given
        // up at 64 KiB, long before the timeout.
        ("endless-headers", ["--timeout", "30"], "sent more than 64 KiB of HTTP headers without ending them: not an audio stream"),
    ])
    func failureIsNamed(path: String, flags: [String], cause: String) throws {
        let (sandbox, server, _) = try setUp()
        let outcome = try sandbox.run(arguments: ["play", server.url(path), "--device", "voicememo_playback"] + flags)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.hasPrefix("voicememo: "), "\(outcome)")
        #expect(outcome.standardError.contains(cause), "\(outcome)")
        #expect(outcome.standardError.split(separator: "\n").count == 1, "one line: \(outcome)")
        #expect(played(sandbox) == nil, "nothing was played")
    }

    /// Bytes that are no audio under any Content-Type are "not audio", never a drop.
    @Test(arguments: ["application/octet-stream", "audio/mpeg"])
    func garbageIsNotAudio(type: String) throws {
        let (sandbox, server, _) = try setUp()
        let outcome = try sandbox.run("play", server.url("garbage?type=\(type)"), "--device", "voicememo_playback")
        #expect(outcome.status == 1, "\(outcome)")
        let last = outcome.standardError.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("voicememo: ") && last.contains("replied with not audio (data FFmpeg does not recognise as audio)"), "\(outcome)")
        #expect(!outcome.standardError.contains("dropped"), "\(outcome)")
        #expect(played(sandbox) == nil, "nothing was played")
    }

    @Test func connectionCutShortOfItsLengthIsADrop() throws {
        let (sandbox, server, reference) = try setUp()
        let outcome = try sandbox.run("play", server.url("cut/noise.wav?bytes=200000"), "--device", "voicememo_playback", "--json")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardOutput.contains(#""event":"failed","error":"the connection to 127.0.0.1:"#), "\(outcome)")
        #expect(outcome.standardOutput.contains("dropped before the stream's end"), "\(outcome)")
        let heard = played(sandbox) ?? Data()
        #expect(heard.count > 100_000 && heard.count < 200_000, "what arrived was played: \(heard.count) bytes")
        #expect(heard == reference.prefix(heard.count), "and it is the start of the file")
    }

    /// A file sent without a Content-Length or ICY headers (HTTP/1.0, the
    /// connection closed at its end) is played once, to its end — it was taken for a dropped live
    /// stream, reconnected and replayed for ever. FLAC announces its length, MP3 here does not
    /// (FFmpeg reads no Xing header from a stream it cannot seek): both end at the close.
    @Test(arguments: ["noise.flac", "tone.mp3"])
    func fileSentUntilTheConnectionClosesPlaysOnceToItsEnd(name: String) throws {
        let (sandbox, server, reference) = try setUp()
        let outcome = try sandbox.run(
            "play", server.url("unsized/" + name), "--device", "voicememo_playback", "--json", timeout: .seconds(30))
        #expect(!outcome.timedOut, "it ends by itself: \(outcome)")
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.contains(#""event":"playing""#) }.count == 1, "played once: \(outcome)")
        #expect(lines.contains { $0.contains(#""live":false"#) }, "not live: \(outcome)")
        #expect(!outcome.standardOutput.contains("reconnecting"), "\(outcome)")
        #expect(outcome.standardOutput.hasSuffix("{\"event\":\"finished\"}\n"), "\(outcome)")
        if name.hasSuffix(".flac") {
            // Compared as a Bool: a failed `==` of two Data makes Swift Testing diff them (minutes).
            let heard = played(sandbox) ?? Data()
            let whole = heard == reference
            #expect(whole, "the whole file, bit for bit, once: \(heard.count) bytes played of \(reference.count)")
        } else {
            let seconds = Double(played(sandbox)?.count ?? 0) / (48_000 * 4)
            #expect(seconds >= 10 && seconds < 10.06, "played \(seconds) s of a 10 s MP3")
        }
    }

    /// The other side of the rule: such a file whose container announced its length (FLAC's
    /// 3 s) and that closes short of it (100 000 of its 265 000 bytes) was cut: a drop, said,
    /// not replayed.
    @Test func fileSentUntilCloseThatClosesShortOfItsLengthIsADrop() throws {
        let (sandbox, server, reference) = try setUp()
        let outcome = try sandbox.run(
            "play", server.url("unsized/noise.flac?bytes=100000"), "--device", "voicememo_playback", "--json",
            timeout: .seconds(30))
        #expect(!outcome.timedOut, "\(outcome)")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardOutput.contains("dropped before the stream's end"), "\(outcome)")
        #expect(!outcome.standardOutput.contains("reconnecting"), "\(outcome)")
        let heard = played(sandbox) ?? Data()
        #expect(heard.count > 50_000 && heard.count < reference.count / 2, "what arrived was played: \(heard.count) bytes")
        let isItsStart = heard == reference.prefix(heard.count)
        #expect(isItsStart, "and it is the file's start")
    }

    /// A server trickling 100 B/s sends bytes, so `--timeout 3` (no byte for
    /// 3 s) never fires; the player says how little arrives instead of "no data for 3 s".
    @Test func trickleIsSlowNotSilent() throws {
        let (sandbox, server, _) = try setUp()
        let outcome = try playLive(
            server.url("live/tone.mp3?bps=100"), in: sandbox, flags: ["--timeout", "3"],
            until: #"[ "$(grep -c '"event":"slow"' events.jsonl)" -ge 2 ]"#)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "exit 0", "still waiting after 7 s, more than twice --timeout, until SIGINT: \(outcome)")
        #expect(!outcome.standardOutput.contains("timed out"), "\(outcome)")
        let slow = lines.filter { $0.contains(#""event":"slow""#) }
        #expect(slow.count >= 2, "said at 2 s and again 5 s later: \(outcome)")
        for line in slow {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let rate = try #require(object["bytes_per_second"] as? Double)
            #expect(rate > 20 && rate < 1000, "about 100 B/s arrive: \(line)")
            #expect(object["server"] as? String == "127.0.0.1:\(server.port)")
        }
        // In words, on standard error.
        let text = try playLive(
            server.url("live/tone.mp3?bps=100"), in: sandbox, flags: ["--timeout", "3"], json: false,
            until: "grep -q 'slow: ' errors.txt")
        #expect(text.standardOutput.hasPrefix("exit 0"), "\(text)")
        let said = try #require(text.standardError.split(separator: "\n").first { $0.hasPrefix("slow: ") }, "\(text)")
        #expect(said.contains(" bytes from 127.0.0.1:\(server.port) in "), "\(said)")
        #expect(said.contains(" B/s)") && said.contains("still buffering"), "\(said)")
    }

    @Test func refusedConnectionIsNamed() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("play", "http://127.0.0.1:1/radio.mp3", "--device", "null")
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("cannot connect to 127.0.0.1:1: Connection refused"), "\(outcome)")
    }

    /// `voicememo play URL --json &`, until `condition` (a shell test over events.jsonl, or
    /// errors.txt) holds or 30 s passed, then SIGINT: "exit N", then the events (and the errors on
    /// standard error).
    private func playLive(
        _ url: String, in sandbox: VoiceMemoSandbox, flags: [String] = [], json: Bool = true, until condition: String
    ) throws -> ProcessOutcome {
        try sandbox.shell("""
            voicememo play '\(url)' --device voicememo_playback \(((json ? ["--json"] : []) + flags).joined(separator: " ")) > events.jsonl 2> errors.txt &
            pid=$!
            holds() { { \(condition); } || ! kill -0 $pid 2>/dev/null; }
            poll=0.1 wait_until 30 "events.jsonl to hold what the test waits for, or play to end" holds
            kill -INT $pid 2>/dev/null
            wait $pid
            echo "exit $?"
            cat events.jsonl
            cat errors.txt >&2
            """)
    }

    @Test func liveStreamShowsItsNameAndEachTitle() throws {
        let (sandbox, server, _) = try setUp()
        let outcome = try playLive(server.url("live/tone.mp3?bps=16000&every=1"), in: sandbox, until: "grep -q 'Song 3' events.jsonl")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "exit 0", "stopped by SIGINT: exit 0. \(outcome)")
        #expect(lines.contains(#"{"event":"buffering","seconds":0.5}"#), "\(outcome)")
        #expect(lines.contains { $0.contains(#""event":"playing""#) && $0.contains(#""live":true,"name":"VoiceMemo Test Radio""#) }, "\(outcome)")
        let titles = lines.filter { $0.contains(#""event":"title""#) }
        // Song 3 and then SIGINT, but the stream is real time with a new title every second:
        // a shell starved for a second after seeing Song 3 lets Song 4 in. So each change once,
        // in order, from Song 1, up to wherever the stop came (at least Song 3).
        let expected = (0..<titles.count).map { #"{"event":"title","title":"Song "# + String($0 + 1) + #""}"# }
        #expect(titles.count >= 3 && titles == expected, "each change once, in order: \(outcome)")
        #expect(!lines.contains { $0.contains("failed") }, "\(outcome)")
    }

    @Test func droppedLiveStreamReconnects() throws {
        let (sandbox, server, _) = try setUp()
        let outcome = try playLive(
            server.url("drop/tone.mp3?bps=16000&after=3"), in: sandbox,
            until: #"[ "$(grep -c '"event":"playing"' events.jsonl)" -ge 2 ]"#)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "exit 0", "\(outcome)")
        let reconnect = lines.firstIndex { $0.contains(#""event":"reconnecting","attempt":1,"limit":5,"delay":0.5"#) }
        #expect(reconnect != nil, "the drop is said, with the attempt and the wait: \(outcome)")
        #expect(lines.contains { $0.contains("dropped before the stream's end") }, "\(outcome)")
        let playing = lines.indices.filter { lines[$0].contains(#""event":"playing""#) }
        #expect(playing.count == 2, "playing again after the reconnect: \(outcome)")
        if let reconnect, let last = playing.last { #expect(reconnect < last) }
    }

    @Test func untrustedCertificateIsRefusedAndATrustedCAPlays() throws {
        let (sandbox, server, reference) = try setUp(tls: true)
        let url = server.url("files/noise.flac", secure: true)
        let refused = try sandbox.run("play", url, "--device", "voicememo_playback")
        #expect(refused.status == 1, "verification is on by default: \(refused)")
        #expect(refused.standardError.contains("TLS"), "\(refused)")
        #expect(refused.standardError.contains("--ca-file"), "says how to trust a private CA: \(refused)")
        #expect(played(sandbox) == nil)

        let trusted = try sandbox.run("play", url, "--device", "voicememo_playback", "--ca-file", sandbox.file("ca.pem"))
        #expect(trusted.status == 0, "\(trusted)")
        #expect(played(sandbox) == reference)

        try FileManager.default.removeItem(atPath: sandbox.file("played.raw"))
        sandbox.environment["VOICEMEMO_CA_FILE"] = sandbox.file("ca.pem")
        let fromEnvironment = try sandbox.run("play", url, "--device", "voicememo_playback")
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
        #expect(played(sandbox) == reference)
    }

    @Test(arguments: [
        (["--ca-file", "/nonexistent/ca.pem"], "--ca-file"),
        (["--speed", "2"], "--speed"),
        (["--from", "1s"], "--from"),
        (["--timeout", "0"], "--timeout"),
        (["--reconnect", "-1"], "--reconnect"),
    ])
    func badFlagForAStreamIsAUsageError(flags: [String], named flag: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run(arguments: ["play", "http://127.0.0.1:1/x.mp3"] + flags)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(flag), "\(outcome)")
    }

    @Test func urlWithoutAHostIsAUsageError() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("play", "http:///x.mp3")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("http:///x.mp3"), "\(outcome)")
    }
}
