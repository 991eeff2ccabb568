import Foundation
import Testing

/// `voicememo export MEMO out.srt|out.vtt|out.txt|out.md`: a memo's transcript as subtitles,
/// text and Markdown, read back by ffmpeg and checked against the words' own times.
@Suite struct TranscriptExportTests {
    /// A cue as ffprobe reads it from a subtitle file: start and end in seconds.
    struct Cue: Equatable {
        let start: Double
        let end: Double
    }

    /// Every cue ffmpeg's subtitle demuxer reads from `path`, in order.
    static func cuesReadByFFmpeg(_ path: String, in sandbox: VoiceMemoSandbox) throws -> [Cue] {
        let probe = try sandbox.shell(
            "ffprobe -v error -show_entries packet=pts_time,duration_time -of csv=p=0 \"\(path)\"")
        #expect(probe.status == 0 && probe.standardError.isEmpty, "\(probe)")
        return probe.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            return fields.count == 2 ? Cue(start: fields[0], end: fields[0] + fields[1]) : nil
        }
    }

    @Test func aTranscriptGoesOutAsSubtitlesTextAndMarkdown() throws {
        let sandbox = try VoiceMemoSandbox()
        let clip = TranscriptionCommandTests.dashwood
        let made = try sandbox.shell("sox \(clip) -r 16000 -c 1 \"$VOICEMEMO_HOME/dashwood.wav\"")
        #expect(made.status == 0, "\(made)")
        let transcribed = try sandbox.run("transcribe", "dashwood", "--json", timeout: .seconds(180))
        #expect(transcribed.status == 0, "\(transcribed)")
        let words = try JSONDecoder().decode(TranscriptionCommandTests.Words.self, from: Data(transcribed.standardOutput.utf8))
        #expect(words.words.count >= 10, "\(words.text)")

        let srt = sandbox.file("talk.srt")
        let exported = try sandbox.run("export", "dashwood", srt)
        #expect(exported.status == 0, "\(exported)")
        let cues = try Self.cuesReadByFFmpeg(srt, in: sandbox)
        let written = try String(contentsOfFile: srt, encoding: .utf8)
        let blocks = written.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(!cues.isEmpty && cues.count == blocks.count, "ffmpeg reads every cue: \(cues.count) of \(blocks.count)\n\(written)")
        // Each cue starts at a word's start and ends at a word's end (to the millisecond), in order,
        // and holds at most two lines of 42 characters over at most 7 s.
        let starts = Set(words.words.map { Int(($0.start * 1000).rounded()) })
        let ends = Set(words.words.map { Int(($0.end * 1000).rounded()) })
        for (cue, block) in zip(cues, blocks) {
            #expect(starts.contains(Int((cue.start * 1000).rounded())) && ends.contains(Int((cue.end * 1000).rounded())), "\(cue)")
            #expect(cue.end - cue.start <= 7.0005, "\(cue)")
            let lines = block.split(separator: "\n").dropFirst(2)
            #expect(lines.count <= 2 && lines.allSatisfy { $0.count <= 42 }, "\(block)")
        }
        for (earlier, later) in zip(cues, cues.dropFirst()) { #expect(earlier.end <= later.start) }
        let cueWords = blocks.flatMap { $0.split(separator: "\n").dropFirst(2).flatMap { $0.split(separator: " ") } }.map(String.init)
        #expect(cueWords == words.words.map(\.word), "every word, once, in order")

        let vtt = sandbox.file("talk.vtt")
        #expect(try sandbox.run("export", "dashwood", vtt).status == 0)
        #expect(try Self.cuesReadByFFmpeg(vtt, in: sandbox) == cues)
        #expect(try String(contentsOfFile: vtt, encoding: .utf8).hasPrefix("WEBVTT\n\n"))

        // --transcript names the form when the name has no extension; - writes to standard output.
        let text = try sandbox.run("export", "dashwood", sandbox.file("notes"), "--transcript", "txt")
        #expect(text.status == 0 && text.standardOutput.contains("notes.txt"), "\(text)")
        #expect(try String(contentsOfFile: sandbox.file("notes.txt"), encoding: .utf8).split(whereSeparator: \.isWhitespace).map(String.init)
            == words.words.map(\.word))
        let markdown = try sandbox.run("export", "dashwood", sandbox.file("notes.md"))
        #expect(markdown.status == 0)
        #expect(try String(contentsOfFile: sandbox.file("notes.md"), encoding: .utf8).hasPrefix("# dashwood\n\n_Transcript, 00:00:07 long._\n\n**00:00:0"))
        let piped = try sandbox.run("export", "dashwood", "-", "--transcript", "srt")
        #expect(piped.status == 0 && piped.standardOutput == written, "\(piped)")

        // `search` on a terminal says how to hear the first match; through a pipe, the lines alone.
        let onTerminal = try sandbox.shell("script -qec 'voicememo search leisure to consider' /dev/null")
        #expect(onTerminal.standardOutput.contains("play it from there: voicememo play 1 --from 00:00:0"), "\(onTerminal)")
        let throughPipe = try sandbox.run("search", "leisure", "to", "consider")
        #expect(throughPipe.status == 0 && throughPipe.standardOutput.hasPrefix("1  00:00:0") && !throughPipe.standardError.contains("play it"), "\(throughPipe)")

        // What is there already stays unless --force.
        let again = try sandbox.run("export", "dashwood", srt)
        #expect(again.status == 1 && again.standardError.contains("talk.srt"), "\(again)")
        #expect(try sandbox.run("export", "dashwood", srt, "--force").status == 0)
    }

    @Test func badRequestsAreRefusedNamingWhy() throws {
        let sandbox = try VoiceMemoSandbox()
        let made = try sandbox.shell("sox -n -r 16000 -c 1 \"$VOICEMEMO_HOME/tone.wav\" synth 2 sine 440 vol 0.3")
        #expect(made.status == 0, "\(made)")
        _ = try sandbox.run("list")
        let none = try sandbox.run("export", "tone", sandbox.file("tone.srt"))
        #expect(none.status == 1 && none.standardError.contains("no transcript yet") && none.standardError.contains("voicememo transcribe 1"), "\(none)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.file("tone.srt")))
        let toStandardOutput = try sandbox.run("export", "tone", "-", "--transcript", "vtt")
        #expect(toStandardOutput.status == 1 && toStandardOutput.standardOutput.isEmpty && toStandardOutput.standardError.contains("no transcript yet"), "\(toStandardOutput)")
        for (arguments, needle) in [
            (["export", "tone", sandbox.file("x.srt"), "--loudness", "-16"], "--loudness"),
            (["export", "tone", sandbox.file("x"), "--transcript", "srt", "--enhance"], "--enhance"),
            (["export", "tone", sandbox.file("x"), "--transcript", "doc"], "--transcript"),
            (["export", "tone", "--transcript", "srt", "--labels", sandbox.file("l.txt")], "--transcript"),
        ] {
            let refused = try sandbox.run(arguments: arguments)
            #expect(refused.status == 2 && refused.standardError.contains(needle), "\(arguments): \(refused)")
        }
        // --format says audio: the .txt name gets the format's extension, as before.
        let audio = try sandbox.run("export", "tone", sandbox.file("take.txt"), "--format", "flac")
        #expect(audio.status == 0 && FileManager.default.fileExists(atPath: sandbox.file("take.txt.flac")), "\(audio)")
    }
}
