import Testing
import VoiceMemoCLI

/// Every subcommand turns its valid forms into the expected typed options.
@Suite("Subcommands parse their valid forms")
struct SubcommandParsingTests {
    /// Runs `arguments` with only `record` built and returns the options it received.
    private func recordOptions(_ arguments: [String]) -> RecordOptions? {
        let received = ReceivedValue<RecordOptions>()
        var implementations = CommandImplementations()
        implementations.record = { options, _ in
            received.store(options)
            return .success
        }
        let outcome = runCommandLine(["record"] + arguments, implementations: implementations)
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        return received.value
    }

    @Test func recordWithoutOptionsLeavesEverythingToTheConfig() {
        #expect(recordOptions([]) == RecordOptions())
    }

    @Test func recordWithEveryOption() {
        let options = recordOptions([
            "--duration", "1:30", "--delay=2s", "--title", "Standup notes", "--format", "wav",
            "--encoding", "ima-adpcm", "--rate", "44.1k", "--channels", "2", "--quality", "max",
            "--source", "tone:1000@-12", "--output", "out.wav", "--vox", "--vox-threshold", "-40",
            "--vox-silence", "2s", "--vox-min", "500ms", "--vox-preroll", "0.25", "--json",
        ])
        #expect(
            options
                == RecordOptions(
                    duration: .seconds(90), delay: .seconds(2), title: "Standup notes", format: .wav,
                    encoding: .imaAdpcm, sampleRate: 44100, channels: 2, quality: .max,
                    source: .tone(frequency: 1000, peakDBFS: -12), outputPath: "out.wav",
                    voiceActivation: VoiceActivationOptions(
                        thresholdDB: -40, silence: .seconds(2), minimumLength: .milliseconds(500),
                        preroll: .milliseconds(250)),
                    json: true))
    }

    @Test func recordShortAliases() {
        let options = recordOptions(["-d", "2m", "-t", "x", "-r", "48000", "-c", "1", "-s", "alsa:hw:1,0", "-o", "f.flac"])
        #expect(
            options
                == RecordOptions(
                    duration: .seconds(120), title: "x", sampleRate: 48000, channels: 1,
                    source: .alsa(device: "hw:1,0"), outputPath: "f.flac"))
    }

    @Test func recordVoxWithoutParameters() {
        #expect(recordOptions(["--vox"])?.voiceActivation == VoiceActivationOptions())
    }

    @Test func meter() {
        let received = ReceivedValue<MeterOptions>()
        var implementations = CommandImplementations()
        implementations.meter = { options, _ in
            received.store(options)
            return .success
        }
        let outcome = runCommandLine(
            ["meter", "--source", "file:/tmp/a b.wav", "--duration", "250ms", "--json"],
            implementations: implementations)
        #expect(outcome.exitCode == .success)
        #expect(received.value == MeterOptions(source: .file(path: "/tmp/a b.wav"), duration: .milliseconds(250), json: true))
    }

    @Test func libraryCommands() {
        let list = ReceivedValue<ListOptions>()
        let play = ReceivedValue<PlayOptions>()
        let rename = ReceivedValue<RenameOptions>()
        let delete = ReceivedValue<DeleteOptions>()
        let restore = ReceivedValue<RestoreOptions>()
        let purge = ReceivedValue<PurgeOptions>()
        let export = ReceivedValue<ExportOptions>()
        let devices = ReceivedValue<DevicesOptions>()
        var implementations = CommandImplementations()
        implementations.list = { list.store($0); _ = $1; return .success }
        implementations.play = { play.store($0); _ = $1; return .success }
        implementations.rename = { rename.store($0); _ = $1; return .success }
        implementations.delete = { delete.store($0); _ = $1; return .success }
        implementations.restore = { restore.store($0); _ = $1; return .success }
        implementations.purge = { purge.store($0); _ = $1; return .success }
        implementations.export = { export.store($0); _ = $1; return .success }
        implementations.devices = { devices.store($0); _ = $1; return .success }
        let commandLines = [
            ["list", "--json", "--deleted"], ["play", "Stand", "--device", "hw:0", "--from", "01:00"],
            ["rename", "42", "New title"], ["delete", "42"], ["restore", "Idea"], ["purge", "--all"],
            ["export", "42", "/tmp/x.ogg", "--format", "ogg"], ["devices"],
        ]
        for arguments in commandLines {
            let outcome = runCommandLine(arguments, implementations: implementations)
            #expect(outcome.exitCode == .success, "\(arguments): \(outcome.standardError)")
        }
        #expect(list.value == ListOptions(json: true, deleted: true))
        #expect(play.value == PlayOptions(memo: "Stand", device: "hw:0", start: .seconds(60)))
        #expect(rename.value == RenameOptions(memo: "42", title: "New title"))
        #expect(delete.value == DeleteOptions(memo: "42"))
        #expect(restore.value == RestoreOptions(memo: "Idea"))
        #expect(purge.value == PurgeOptions(target: .all))
        #expect(export.value == ExportOptions(memo: "42", path: "/tmp/x.ogg", format: .ogg))
        #expect(devices.value == DevicesOptions())

        _ = runCommandLine(["purge", "Old idea"], implementations: implementations)
        #expect(purge.value == PurgeOptions(target: .memo("Old idea")))
        _ = runCommandLine(["list"], implementations: implementations)
        #expect(list.value == ListOptions())
        _ = runCommandLine(["rename", "--", "-7", "--json"], implementations: implementations)
        #expect(rename.value == RenameOptions(memo: "-7", title: "--json"))
    }

    @Test func theAppRunsWithoutASubcommand() {
        let received = ReceivedValue<AppOptions>()
        var implementations = CommandImplementations()
        implementations.app = { options, _ in
            received.store(options)
            return .success
        }
        #expect(runCommandLine([], implementations: implementations).exitCode == .success)
        #expect(received.value == AppOptions())
    }

    @Test func implementationsSeeTheEnvironment() {
        let received = ReceivedValue<Bool>()
        var implementations = CommandImplementations()
        implementations.devices = { _, context in
            received.store(context.allowsColor)
            return .success
        }
        _ = runCommandLine(["devices"], environment: ["NO_COLOR": "1"], implementations: implementations)
        #expect(received.value == false)
        _ = runCommandLine(["devices"], environment: [:], implementations: implementations)
        #expect(received.value == true)
    }
}

@Suite struct GainParsingTests {
    @Test(arguments: [
        ("+3dB", GainChange.byDecibels(3)), ("-1.5db", .byDecibels(-1.5)), ("=-6dB", .toDecibels(-6)), ("=12dB", .toDecibels(12)),
        ("50%", .toPercent(50)), ("=0%", .toPercent(0)), ("+5%", .byPercent(5)), ("-5%", .byPercent(-5)),
        ("mute", .mute), ("UNMUTE", .unmute), ("toggle", .toggle),
    ])
    func changes(text: String, change: GainChange) throws {
        let received = ReceivedValue<GainOptions>()
        var implementations = CommandImplementations()
        implementations.gain = { options, _ in
            received.store(options)
            return .success
        }
        let outcome = runCommandLine(["gain", "--json", text], implementations: implementations)
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        #expect(received.value == GainOptions(change: change, json: true))
    }
}
