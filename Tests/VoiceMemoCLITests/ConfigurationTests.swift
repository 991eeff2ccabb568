import Audio
import Foundation
import Interface
import SoundFiles
import Testing

@testable import VoiceMemoCLI

/// The config file: parsing (pure), where it lives, and flags over config over defaults.
@Suite struct ConfigurationTests {
    static let path = "/home/a/.config/voicememo/config"

    /// With nothing naming them, the input and the playback device are the sound server's
    /// defaults where a server answers and ALSA's `default` where none does; the config's
    /// `source` and `on_source_lost` still apply over that choice.
    @Test func theDevicesNothingNamesFollowWhetherAServerAnswers() throws {
        #expect(AutomaticDevices.choose(serverAnswers: true) == .pulse(source: "default"))
        #expect(AutomaticDevices.choose(serverAnswers: false) == .alsa(device: "default"))
        #expect(AutomaticDevices.choosePlaybackDevice(serverAnswers: true) == "pulse:default")
        #expect(AutomaticDevices.choosePlaybackDevice(serverAnswers: false) == "default")
        let unset = try ConfigurationParser.parse("", path: Self.path)
        #expect(unset.input(nil, automatic: AutomaticDevices.choose(serverAnswers: true)) == .pulse(source: "default"))
        let named = try ConfigurationParser.parse("source = alsa:default\n", path: Self.path)
        #expect(named.input(nil, automatic: AutomaticDevices.choose(serverAnswers: true)) == .alsa(device: "default"),
            "a config that names ALSA's default keeps it")
    }

    /// `on_source_lost` reaches a sound server's source, whether `--source` or `source` names
    /// it, and leaves every other input as it is; unset, a removed source stops the recording.
    @Test func onSourceLostReachesAServerSourceOnly() throws {
        let configuration = try ConfigurationParser.parse("on_source_lost = default\nsource = pulse:usb_mic\n", path: Self.path)
        #expect(configuration.onSourceLost == .continueFromDefault)
        #expect(configuration.input(nil, automatic: .default) == .pulse(source: "usb_mic", whenLost: .continueFromDefault))
        #expect(configuration.input(.pulse(source: "other"), automatic: .default) == .pulse(source: "other", whenLost: .continueFromDefault))
        #expect(configuration.input(.alsa(device: "hw:1"), automatic: .default) == .alsa(device: "hw:1"))
        let unset = try ConfigurationParser.parse("source = pulse:usb_mic\n", path: Self.path)
        #expect(unset.input(nil, automatic: .default) == .pulse(source: "usb_mic", whenLost: .stop))
        #expect(throws: ConfigurationError.self) { try ConfigurationParser.parse("on_source_lost = retry\n", path: Self.path) }
    }

    /// `echo_cancel` reaches a meeting, whether `--source` or `source` names it, and leaves
    /// every other input as it is; unset (or off), a meeting is not echo cancelled unless
    /// `--echo-cancel` says so.
    @Test func echoCancelReachesAMeetingOnly() throws {
        let configuration = try ConfigurationParser.parse("echo_cancel = on\nsource = meeting\n", path: Self.path)
        #expect(configuration.echoCancel == true)
        #expect(configuration.input(nil, automatic: .default) == .joined(first: "default", second: "@DEFAULT_MONITOR@", cancelsEcho: true))
        #expect(configuration.input(.joined(first: "a", second: "b"), automatic: .default).cancelsEcho)
        #expect(configuration.input(.pulse(source: "usb_mic"), automatic: .default) == .pulse(source: "usb_mic"))
        let off = try ConfigurationParser.parse("echo_cancel = off\nsource = meeting\n", path: Self.path)
        #expect(!off.input(nil, automatic: .default).cancelsEcho)
        #expect(off.input(nil, cancelsEcho: true, automatic: .default).cancelsEcho, "--echo-cancel over echo_cancel = off")
        let unset = try ConfigurationParser.parse("source = meeting\n", path: Self.path)
        #expect(!unset.input(nil, automatic: .default).cancelsEcho)
        #expect(throws: ConfigurationError.self) { try ConfigurationParser.parse("echo_cancel = loud\n", path: Self.path) }
    }

    @Test func everyKeyIsRead() throws {
        let text = """
            # my defaults
            format = wav
            encoding = pcm24
              rate = 44.1k
            channels=1

            quality = max
            source = tone:440@-12
            vox.threshold = -45
            vox.silence = 1.5s
            vox.min = 250ms
            vox.preroll = 0.5
            vox.replay = on
            vox.replay_pitch = 7
            meter.min_db = -80
            meter.peak_hold = 2s
            meter.mode = ppm2
            meter.loudness_target = -16
            """
        let configuration = try ConfigurationParser.parse(text, path: Self.path)
        #expect(configuration.format == .wav)
        #expect(configuration.encoding == .pcm24)
        #expect(configuration.sampleRate == 44100)
        #expect(configuration.channels == 1)
        #expect(configuration.quality == .max)
        #expect(configuration.source == .tone(frequency: 440, peakDBFS: -12))
        #expect(configuration.voxThresholdDB == -45)
        #expect(configuration.voxSilence == 1.5)
        #expect(configuration.voxMinimum == 0.25)
        #expect(configuration.voxPreRoll == 0.5)
        #expect(configuration.voxReplay == true && configuration.voxReplayPitch == 7)
        #expect(configuration.meterMinimumDB == -80)
        #expect(configuration.meterPeakHold == 2)
        #expect(configuration.meterMode == .ppm2)
        #expect(configuration.loudnessTarget == -16)
        var app = AppState()
        app.apply(configuration)
        #expect(app.voice.parameters.replay == ReplayParameters(isOn: true, pitchSemitones: 7), "the app's V panel starts from them")
        #expect(app.voice.parameters.thresholdDB == -45)
        let vox = configuration.voiceActivationSettings
        #expect(vox.startThresholdDB == -45 && vox.hangTime == 1.5 && vox.minimumTake == 0.25 && vox.preRoll == 0.5)
    }

    @Test func aTrailingCommentEndsTheValueAndQuotesKeepAHash() throws {
        let text = """
            format = wav   # wav flac ogg
            rate = 44.1k\t# tab before the comment
            source = "file:/tmp/take #2.wav"   # quoted: the # is the value's
            """
        let configuration = try ConfigurationParser.parse(text, path: Self.path)
        #expect(configuration.format == .wav)
        #expect(configuration.sampleRate == 44_100)
        #expect(configuration.source == .file(path: "/tmp/take #2.wav"))
        let inWord = try ConfigurationParser.parse("source = file:/tmp/a#2.wav", path: Self.path)
        #expect(inWord.source == .file(path: "/tmp/a#2.wav"), "a # inside a word is not a comment")
        #expect(throws: ConfigurationError.self) { try ConfigurationParser.parse("source = \"file:/x", path: Self.path) }
        #expect(throws: ConfigurationError.self) { try ConfigurationParser.parse("format = \"wav\" flac", path: Self.path) }
    }

    @Test func commentsAndBlankLinesOnlyAreAnEmptyConfiguration() throws {
        #expect(try ConfigurationParser.parse("\n# nothing\n   \n\t# indented comment\n", path: Self.path) == Configuration())
        #expect(try ConfigurationParser.parse("", path: Self.path) == Configuration())
    }

    /// `source = meeting` in the config file is the meeting shorthand `--source` takes.
    @Test func sourceMeetingIsTheDefaultSourceAndTheDefaultMonitor() throws {
        let configuration = try ConfigurationParser.parse("source = meeting\n", path: Self.path)
        #expect(configuration.source == .joined(first: "default", second: "@DEFAULT_MONITOR@"))
    }

    @Test(arguments: [
        ("format = wav\nthis is garbage\n", 2, "\"this is garbage\" is not a setting; write key = value"),
        ("\n\nfromat = wav", 3, "unknown key \"fromat\" (did you mean format?); the keys are: format, encoding, rate"),
        ("format = wave", 1, "format: \"wave\" is not a choice; use one of: wav, flac"),
        ("rate = fast", 1, "rate: \"fast\" is not a sample rate"),
        ("channels = 0", 1, "channels: \"0\" is out of range; use a whole number from 1 to 32"),
        ("source = mic", 1, "source: \"mic\" is not a source; use alsa:NAME"),
        ("source = pulse:a+alsa:b", 1, "source: \"pulse:a+alsa:b\" joins \"alsa:b\", which is not a sound server source"),
        ("vox.threshold = 3", 1, "vox.threshold: \"3\" is out of range"),
        ("vox.silence = 0", 1, "vox.silence: \"0\" is out of range"),
        ("vox.preroll = 11s", 1, "vox.preroll: \"11s\" is out of range; use a number from 0 to 10 s"),
        ("vox.replay = maybe", 1, "vox.replay: \"maybe\" is not a choice; use one of: true, false, yes, no, on, off"),
        ("vox.replay_pitch = 40", 1, "vox.replay_pitch: \"40\" is out of range"),
        ("meter.min_db = 0", 1, "meter.min_db: \"0\" is out of range"),
        ("meter.peak_hold = soon", 1, "meter.peak_hold: \"soon\" is not a duration"),
        ("meter.mode = bbc", 1, "meter.mode: \"bbc\" is not a choice; use one of: digital, ppm1, ppm2, vu, loudness"),
        ("\nmeter.mode = PPM2", 2, "meter.mode: \"PPM2\" is not a choice"),
        ("meter.loudness_target = -3", 1, "meter.loudness_target: \"-3\" is out of range"),
        ("meter.loudness_target = loud", 1, "meter.loudness_target: \"loud\" is not a number"),
        ("format = wav\nformat = flac", 2, "format is set twice; set it once"),
        ("bell = \u{7}", 1, "unknown key \"bell\""),
    ])
    func badLinesAreRefusedNamingTheFileTheLineAndWhatIsAllowed(_ text: String, line: Int, message: String) {
        #expect(throws: ConfigurationError.self) { try ConfigurationParser.parse(text, path: Self.path) }
        do {
            _ = try ConfigurationParser.parse(text, path: Self.path)
        } catch {
            #expect(error.line == line)
            #expect(error.description.hasPrefix("\(Self.path), line \(line): "), "\(error)")
            #expect(error.description.contains(message), "\(error)")
            #expect(!error.description.contains("\u{7}"))
        }
    }

    @Test func theFileIsUnderXDGConfigHomeElseHome() {
        #expect(ConfigurationFile.path(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"]) == "/x/cfg/voicememo/config")
        #expect(ConfigurationFile.path(environment: ["HOME": "/h"]) == "/h/.config/voicememo/config")
        #expect(ConfigurationFile.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/voicememo/config",
                "a relative XDG_CONFIG_HOME is ignored, as the XDG spec says")
    }

    @Test func aMissingFileIsNoConfigurationAndAGarbageFileIsAUsageFailure() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vm-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CONFIG_HOME": folder.path]
        #expect(try ConfigurationFile.load(environment: environment) == Configuration())
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("voicememo"), withIntermediateDirectories: true)
        try Data("rate = 48000\n\u{FF}garbage".utf8).write(to: folder.appendingPathComponent("voicememo/config"))
        let context = CommandContext(console: CapturedText().console, environment: environment)
        do {
            _ = try context.configuration()
            Issue.record("a garbage line was accepted")
        } catch let failure as CommandFailure {
            #expect(failure.exitCode == .usageError)
            #expect(failure.message.hasPrefix(folder.path + "/voicememo/config, line 2: "), "\(failure.message)")
        }
    }

    @Test func flagsOverrideTheConfigWhichOverridesTheDefaults() throws {
        var configuration = Configuration()
        configuration.format = .wav
        configuration.encoding = .pcm24
        configuration.sampleRate = 44100
        configuration.channels = 1
        configuration.quality = .low
        configuration.source = .tone(frequency: 440, peakDBFS: -12)
        configuration.voxThresholdDB = -50
        configuration.voxSilence = 3
        let context = CommandContext(console: CapturedText().console, environment: [:])

        let fromConfig = try RecordRequest(RecordOptions(), context: context, configuration: configuration)
        #expect(fromConfig.settings.format == .wav)
        #expect(fromConfig.settings.encoding == .pcm24)
        #expect(fromConfig.settings.sampleRate == 44100)
        #expect(fromConfig.settings.channels == 1)
        #expect(fromConfig.settings.quality == .low)
        #expect(fromConfig.source == .tone(frequency: 440, peakDBFS: -12))

        let flags = RecordOptions(
            format: .flac, sampleRate: 48000, channels: 2, quality: .max, source: .tone(frequency: 1000, peakDBFS: -3),
            voiceActivation: VoiceActivationOptions(thresholdDB: -30))
        let fromFlags = try RecordRequest(flags, context: context, configuration: configuration)
        #expect(fromFlags.settings.format == .flac)
        #expect(fromFlags.settings.encoding != .pcm24, "the config's encoding belongs to the config's format")
        #expect(fromFlags.settings.sampleRate == 48000)
        #expect(fromFlags.settings.channels == 2)
        #expect(fromFlags.settings.quality == .max)
        #expect(fromFlags.source == .tone(frequency: 1000, peakDBFS: -3))
        #expect(fromFlags.voiceActivation?.startThresholdDB == -30, "--vox-threshold over vox.threshold")
        #expect(fromFlags.voiceActivation?.hangTime == 3, "vox.silence where no flag says otherwise")

        // vox.replay applies to voice activation only; --pitch over vox.replay_pitch.
        configuration.voxReplay = true
        configuration.voxReplayPitch = 5
        #expect(try RecordRequest(RecordOptions(), context: context, configuration: configuration).replayPitch == nil)
        var vox = RecordOptions(voiceActivation: VoiceActivationOptions(thresholdDB: -30))
        #expect(try RecordRequest(vox, context: context, configuration: configuration).replayPitch == 5)
        vox.replayPitch = -3
        #expect(try RecordRequest(vox, context: context, configuration: configuration).replayPitch == -3)

        let defaults = try RecordRequest(RecordOptions(source: .tone(frequency: 440, peakDBFS: -12)), context: context, configuration: Configuration())
        #expect(defaults.settings.format == .flac && defaults.settings.sampleRate == 48000 && defaults.settings.channels == 2)
    }
}
