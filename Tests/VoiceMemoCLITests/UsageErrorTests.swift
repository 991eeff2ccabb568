import Testing
import VoiceMemoCLI

/// Bad flags and values exit 2 with a message naming the flag, the value and what is allowed.
@Suite("Usage errors of the command table")
struct UsageErrorTests {
    @Test(
        "bad flags and values",
        arguments: [
            (["record", "--rate", "abc"],
             "--rate: \"abc\" is not a sample rate; use a rate in Hz from 8000 to 384000, e.g. 48000, 48k or 44.1k",
             "record"),
            (["record", "--channels", "40"],
             "--channels: \"40\" is out of range; use a whole number from 1 to 32", "record"),
            (["record", "--format", "flc"],
             "--format: \"flc\" is not a choice; use one of: wav, flac, ogg, opus, mp3, caf, aiff, m4a; did you mean 'flac'?",
             "record"),
            (["record", "--encoding", "mp3"],
             "--encoding: \"mp3\" is not a choice; use one of: pcm16, pcm24, pcm32, float, alac16, alac24, ulaw, alaw, ima-adpcm",
             "record"),
            (["record", "--quality", "best"],
             "--quality: \"best\" is not a choice; use one of: min, low, medium, high, max", "record"),
            (["record", "--duration", "10x"],
             "--duration: \"10x\" is not a duration; use e.g. 90, 1.5s, 250ms, 2m, 1h, 01:30 or 1:02:03", "record"),
            (["record", "--delay", "-5"], "--delay: \"-5\" is negative; use a duration of 0 or more, e.g. 90 or 1.5s",
             "record"),
            (["record", "--title", ""], "--title: \"\" is empty; give some text", "record"),
            (["record", "--vox", "--vox-threshold", "6"],
             "--vox-threshold: \"6\" is out of range; use a number from -160 to 0 dB", "record"),
            (["record", "--vox-silence", "2s"], "--vox-silence only works with --vox; add --vox", "record"),
            (["record", "--source", "tone:abc"],
             "--source: \"tone:abc\" is not a tone; use tone:FREQ@DBFS, e.g. tone:1000@-12", "record"),
            (["record", "--source", "tone:1000@3"],
             "--source: \"tone:1000@3\" has a peak above 0 dBFS; use a peak of 0 dBFS or less, e.g. tone:1000@-12",
             "record"),
            (["record", "--source", "tone:0@-12"],
             "--source: \"tone:0@-12\" has a frequency out of range; use a frequency from 1 Hz to half the sample rate, e.g. tone:1000@-12",
             "record"),
            (["record", "--rate", "8000", "--source", "tone:5000@-6"],
             "--source: \"tone:5000@-6\" is above half the sample rate; use a frequency from 1 to 4000 Hz at 8000 Hz",
             "record"),
            (["record", "--source", "default"],
             "--source: \"default\" is not a source; use alsa:NAME (e.g. alsa:default), pulse:NAME (a sound server's source, e.g. pulse:default), tone:FREQ@DBFS (e.g. tone:1000@-12), file:PATH, url:URL (an http or https stream), pulse:A+pulse:B (two sound server sources in one memo) or meeting",
             "record"),
            (["record", "--source", "alsa:"],
             "--source: \"alsa:\" has no device name; use alsa:NAME, e.g. alsa:default or alsa:hw:1,0", "record"),
            (["meter", "--source", "file:"], "--source: \"file:\" has no path; use file:PATH, e.g. file:speech.wav",
             "meter"),
            (["record", "--rate"], "--rate needs a value: --rate HZ", "record"),
            (["record", "--rat", "48k"], "unknown option '--rat'; did you mean '--rate'?", "record"),
            (["record", "--json", "--json"], "--json was given more than once; give it once", "record"),
            (["record", "extra"], "unexpected argument \"extra\"", "record"),
            (["meter", "--duration", "1.5.2"],
             "--duration: \"1.5.2\" is not a duration; use e.g. 90, 1.5s, 250ms, 2m, 1h, 01:30 or 1:02:03", "meter"),
            (["list", "--jsn"], "unknown option '--jsn'; did you mean '--json'?", "list"),
            (["list", "--json=yes"], "--json takes no value, but was given \"yes\"", "list"),
            (["play"], "missing MEMO", "play"),
            (["play", "x", "--from", "later"],
             "--from: \"later\" is not a duration; use e.g. 90, 1.5s, 250ms, 2m, 1h, 01:30 or 1:02:03", "play"),
            (["rename", "x"], "missing TITLE", "rename"),
            (["rename", "x", " "], "TITLE: \" \" is empty; give some text", "rename"),
            (["delete"], "missing MEMO", "delete"),
            (["restore", "a", "b"], "unexpected argument \"b\"", "restore"),
            (["purge"], "give MEMO or --all", "purge"),
            (["purge", "x", "--all"], "MEMO and --all cannot be given together; give one of them", "purge"),
            (["export", "x"], "missing PATH (or --labels FILE)", "export"),
            (["export", "x", "y.zip", "--format", "zip"],
             "--format: \"zip\" is not a choice; use one of: wav, flac, ogg, opus, mp3, caf, aiff, m4a", "export"),
            (["devices", "--every"], "unknown option '--every'", "devices"),
        ])
    func usageError(arguments: [String], message: String, subcommand: String) {
        let outcome = runCommandLine(arguments)
        #expect(outcome.exitCode == .usageError)
        #expect(outcome.standardOutput == "")
        #expect(
            outcome.standardError == "voicememo: \(message)\nRun 'voicememo \(subcommand) --help' for usage.\n")
    }

    @Test func unknownSubcommands() {
        let typo = runCommandLine(["recrod"])
        #expect(typo.exitCode == .usageError)
        #expect(
            typo.standardError
                == "voicememo: unknown subcommand 'recrod'; did you mean 'record'?\nRun 'voicememo --help' for usage.\n")
        let unknown = runCommandLine(["frobnicate"])
        #expect(unknown.exitCode == .usageError)
        #expect(unknown.standardError == "voicememo: unknown subcommand 'frobnicate'\nRun 'voicememo --help' for usage.\n")
        #expect(runCommandLine(["help", "frob"]).exitCode == .usageError)
        let option = runCommandLine(["--vresion"])
        #expect(option.exitCode == .usageError)
        #expect(
            option.standardError
                == "voicememo: unknown option '--vresion'; did you mean '--version'?\nRun 'voicememo --help' for usage.\n")
    }

    @Test func hostileValuesAreNotSentToTheTerminal() {
        let outcome = runCommandLine(["record", "--format", "\u{1B}]0;pwned\u{07}"])
        #expect(outcome.exitCode == .usageError)
        #expect(!outcome.standardError.contains("\u{1B}"))
        #expect(outcome.standardError.contains("␛]0;pwned␇"))
    }
}
