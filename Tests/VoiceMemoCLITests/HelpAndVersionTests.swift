import Testing
@testable import VoiceMemoCLI

@Suite("Help and version")
struct HelpAndVersionTests {
    /// Every subcommand (`CommandLineRunner.subcommands`), in the order the top-level help lists them.
    static let subcommands = CommandLineRunner.subcommands.map(\.name)

    @Test func version() {
        let outcome = runCommandLine(["--version"])
        #expect(outcome.exitCode == .success)
        #expect(outcome.standardOutput == "voicememo 0.1.0\n\(VoiceMemoCLI.libraryVersions())\n")
        #expect(outcome.standardError == "")
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func topLevelHelpListsEverySubcommand(arguments: [String]) {
        let outcome = runCommandLine(arguments)
        #expect(outcome.exitCode == .success)
        for name in Self.subcommands {
            #expect(outcome.standardOutput.contains("\n  \(name) "), "\(name) missing")
        }
        #expect(outcome.standardError == "")
    }

    @Test(arguments: subcommands)
    func everyWayToAskForHelpGivesTheSameText(name: String) {
        let flag = runCommandLine([name, "--help"])
        #expect(flag.exitCode == .success)
        #expect(flag.standardOutput.contains("Usage: voicememo \(name)"))
        #expect(runCommandLine([name, "-h"]).standardOutput == flag.standardOutput)
        #expect(runCommandLine(["help", name]).standardOutput == flag.standardOutput)
        #expect(runCommandLine([name, "--bogus", "--help"]).standardOutput == flag.standardOutput)
    }

    @Test(arguments: [[], ["record"], ["meter"], ["list"], ["play"], ["purge"], ["export"]])
    func helpFitsEightyColumnsWithoutEscapes(arguments: [String]) {
        let output = runCommandLine(arguments + ["--help"], environment: ["NO_COLOR": "1"]).standardOutput
        for line in output.split(separator: "\n") {
            #expect(line.count <= 80, "too wide: \(line)")
            #expect(!line.contains("\u{1B}"))
        }
    }

    @Test func recordHelpSnapshot() {
        let expected = """
            Record one memo into the library and print its id.

            Usage: voicememo record [OPTIONS]

            The new memo's id is printed on standard output as soon as the input is open,
            before any audio, so a script can use it while the recording runs (an input that
            cannot be opened prints no id and leaves no memo); if nothing is recorded
            (interrupted at once, a full disk, an input that gives nothing) the memo is
            removed again and the exit status is 1 (130 when interrupted). With --json, the
            whole memo is printed when recording stops instead; with --output, the file's
            path. Recording stops after --duration, or on Ctrl-C, SIGTERM or SIGHUP; the
            memo is kept either way. With transcribe = auto (the default) a memo is then
            transcribed (progress on standard error; Ctrl-C stops it, the memo stays) unless
            --no-transcribe. Flags override the config file.

            Options:
              -d, --duration T        Stop after T of recorded audio (more than 0): 90,
                                      1.5s, 250ms, 2m, 1h, 01:30 or 1:02:03.
                  --delay T           Start recording after T.
                  --at TIME           Start recording at TIME, local: HH:MM or HH:MM:SS (the
                                      next such time) or YYYY-MM-DDTHH:MM[:SS]; nothing is
                                      opened until then, and the wait uses no CPU. With
                                      --duration: record the 14:00 call for 45 minutes as
                                      --at 14:00 --duration 45m.
              -t, --title TEXT        The memo's title. (default: Memo DATE TIME)
                  --format F          The file format: wav, flac, ogg, opus, mp3, caf, aiff
                                      or m4a (AAC). A WAV past 4 GiB (6 h 12 min of 48 kHz
                                      stereo 16-bit) becomes RF64; an AIFF (and a WAV in
                                      ima-adpcm) cannot pass 4 GiB: a longer --duration is
                                      refused, and a recording without one stops there,
                                      kept. (default: flac)
                  --encoding E        The sample encoding, where the format allows it:
                                      pcm16, pcm24, pcm32, float, alac16, alac24, ulaw, alaw
                                      or ima-adpcm. (default: the format's usual one)
              -r, --rate HZ           The sample rate in Hz: 48000, 48k, 44.1k. (default:
                                      48000)
              -c, --channels N        The number of channels, 1 to 32. (default: 2)
                  --quality Q         VBR quality or compression level: min, low, medium,
                                      high or max. (default: high)
              -s, --source S          Where audio comes from: alsa:NAME (a capture device,
                                      as arecord -L lists them), pulse:NAME (a sound
                                      server's source, as voicememo devices lists them;
                                      pulse:default is its default), tone:FREQ@DBFS (a sine
                                      whose peak is at DBFS, e.g. tone:1000@-12), file:PATH
                                      (a sound file played in as if from a microphone, in
                                      real time), url:URL (an http or https stream,
                                      resampled to the recording's rate and channels),
                                      pulse:A+pulse:B (two sound server sources as the
                                      channels of one memo, A's first; 2 channels mix each
                                      to mono, 4 keep each in stereo) or meeting (the sound
                                      server's default source and what its default sink
                                      plays: pulse:default+pulse:@DEFAULT_MONITOR@).
                                      (default: pulse:default when a sound server answers,
                                      else alsa:default)
              -o, --output PATH       Write this file instead of adding a memo to the
                                      library. An existing file is refused unless --force; a
                                      folder, a device, a FIFO and any path inside the
                                      library folder are refused even then.
                  --force             With --output: replace a regular file already at PATH.
                  --vox               Voice-activated: wait for speech at the threshold's
                                      level, stop after the silence after it; each utterance
                                      becomes its own memo.
                  --vox-threshold DB  The level that starts a recording, in dBFS.
                  --vox-silence T     How long a silence ends a recording (3 s unless set).
                  --vox-min T         Utterances shorter than T are not kept.
                  --vox-preroll T     How much audio from before the threshold was crossed
                                      to keep.
                  --vox-calibrate T   Listen for T first (up to 60 s) and set the threshold
                                      12 dB above the room's level (its RMS over T) instead
                                      of --vox-threshold.
                  --vox-level-only    Start and end recordings on the level alone, without
                                      listening for speech: any sound at the threshold (a
                                      tone, a door) starts one.
                  --replay            With --vox: play each kept take back as soon as it
                                      ends (the talking-app replay); the input is ignored
                                      while it plays, so the replay never starts a take.
                  --pitch SEMITONES   With --replay: replay pitched, -12 to 12 semitones (7:
                                      a cartoon voice). (default: 0)
                  --json              Print the new memo as JSON when recording stops,
                                      instead of its id at the start.
                  --play              Play the recording on the default ALSA device as soon
                                      as it is saved (the config's play_after_stop = true
                                      does the same).
                  --captions          Show the words as they are recognised while recording:
                                      a draft, on standard error (with --json, caption
                                      events on standard output); the saved memo is
                                      transcribed whole as usual.
                  --echo-cancel       With a meeting (--source meeting or pulse:A+pulse:B):
                                      take what the desktop plays (the second input) out of
                                      the microphone's channels with WebRTC's echo
                                      canceller, for a meeting on loudspeakers; the config's
                                      echo_cancel = on does the same.
                  --no-transcribe     Do not transcribe the memo once saved (transcribe =
                                      auto, the default, does; it says so on standard
                                      error).
              -h, --help              Show this help.

            """
        let outcome = runCommandLine(["record", "--help"])
        #expect(outcome.exitCode == .success)
        #expect(outcome.standardOutput == expected)
    }

    /// `export --help`, quoted whole: `--loudness`, `--true-peak` and `--transcript` are in it on purpose.
    @Test func exportHelpSnapshot() {
        let expected = """
            Write a copy of a memo to a file, converting if needed.

            Usage: voicememo export [OPTIONS] MEMO [PATH]

            An existing file at PATH is never replaced unless --force is given; even then
            the copy is written beside it first and renamed over it only when complete, so a
            failed export leaves the old file as it was. --force never replaces a memo's
            file, the memo index or anything but a regular file. Every destination is
            checked before anything is written: a folder that does not exist, or --labels
            naming the audio copy's own file, is refused with nothing written.

            Arguments:
              MEMO  The memo: its id (all digits is only ever an id), else its title or a
                    unique prefix of it; title:TEXT is always a title (title:2 for a memo
                    titled "2 weeks").
              PATH  The sound file to write (optional with --labels); a folder (one that
                    exists, or a path ending in /) gets <title>.<ext> in it; a name without
                    a sound file extension gets the format's (Standup → Standup.flac). A
                    name ending in .txt, .srt, .vtt or .md gets the memo's transcript
                    instead (text, subtitles, Markdown); - writes to standard output.

            Options:
                  --format F        The file format: wav, flac, ogg, opus, mp3, caf, aiff or
                                    m4a (AAC). (default: from PATH's extension, else the
                                    memo's own)
                  --force           Replace a file already at PATH (only once the new copy
                                    is complete).
                  --labels FILE     Also (or only) write the memo's markers to FILE as an
                                    Audacity label track.
                  --loudness LUFS   Normalise the copy to this integrated loudness (EBU
                                    R128), -70 to 0: -16 for a podcast, -23 for broadcast.
                                    Two passes: the memo is measured, then written with a
                                    gain and a true-peak limiter; the copy is measured again
                                    and kept only within 0.5 LU of it.
                  --true-peak DBTP  With --loudness: the true-peak ceiling the copy stays
                                    under, -30 to 0. (default: -1)
                  --enhance         Suppress the background noise in the copy, as 'voicememo
                                    enhance' does (before --loudness); the memo stays as it
                                    is.
                  --transcript T    Write the memo's transcript instead of its audio: txt
                                    (paragraphs), srt or vtt (subtitles: cues of at most 2
                                    lines and 7 s, split at pauses) or md (Markdown with
                                    times). (default: from PATH's extension)
              -h, --help            Show this help.

            """
        let outcome = runCommandLine(["export", "--help"])
        #expect(outcome.exitCode == .success)
        #expect(outcome.standardOutput == expected)
    }

    @Test func topLevelHelpListsTheAppsOptions() {
        let outcome = runCommandLine(["--help"])
        for option in ["--source S", "--format F", "--rate HZ", "--channels N", "--device D"] {
            #expect(outcome.standardOutput.contains(option), "\(option) in: \(outcome.standardOutput)")
        }
    }
}

/// The man page and the completions come from the same declarations as `--help`: every
/// option `--help` shows is in each of them.
@Suite struct ManualDriftTests {
    static let subcommands = HelpAndVersionTests.subcommands

    @Test(arguments: subcommands)
    func everyOptionOfTheHelpIsInTheManualAndTheCompletions(subcommand: String) {
        let help = runCommandLine([subcommand, "--help"]).standardOutput
        let options = help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," })
            .filter { $0.hasPrefix("--") }.map { String($0.trimmingSuffix(while: { ".;:)".contains($0) })) }
        #expect(!options.isEmpty)
        let page = runCommandLine(["--generate-man-page"]).standardOutput
        let bash = runCommandLine(["--generate-completion", "bash"]).standardOutput
        let fish = runCommandLine(["--generate-completion", "fish"]).standardOutput
        let zsh = runCommandLine(["--generate-completion", "zsh"]).standardOutput
        #expect(page.contains(".SS \"voicememo \(subcommand)"))
        for option in Set(options) {
            #expect(page.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(option) in the man page")
            #expect(bash.contains(option), "\(option) in the bash completion")
            #expect(zsh.contains("'" + option) || zsh.contains(")" + option), "\(option) in the zsh completion")
            #expect(fish.contains("-l " + option.dropFirst(2)), "\(option) in the fish completion")
        }
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
