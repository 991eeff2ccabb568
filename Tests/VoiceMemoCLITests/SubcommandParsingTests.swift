import Testing
@testable import VoiceMemoCLI

/// Every subcommand turns its valid forms into the expected typed options.
@Suite("Subcommands parse their valid forms")
struct SubcommandParsingTests {
    /// Parses `record` with `arguments` and returns the options its run would receive.
    private func recordOptions(_ arguments: [String]) -> RecordOptions? {
        let (outcome, options) = parseCommandLine(RecordCommand.self, arguments)
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        return options
    }

    @Test func recordCaptionsIsAFlagAndNotForVoiceActivation() {
        #expect(recordOptions(["--captions"])?.showsCaptions == true)
        #expect(recordOptions([])?.showsCaptions == false)
        let (outcome, _) = parseCommandLine(RecordCommand.self, ["--captions", "--vox"])
        #expect(outcome.exitCode == .usageError, "\(outcome.standardError)")
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
        let (outcome, options) = parseCommandLine(
            MeterCommand.self, ["--source", "file:/tmp/a b.wav", "--duration", "250ms", "--json"])
        #expect(outcome.exitCode == .success)
        #expect(options == MeterOptions(source: .file(path: "/tmp/a b.wav"), duration: .milliseconds(250), json: true))
    }

    @Test func libraryCommands() {
        /// The options `definition` gets from `arguments`, expecting the command line to accept them.
        func parsed<Definition: SubcommandDefinition>(_ definition: Definition.Type, _ arguments: [String]) -> Definition.Options? {
            let (outcome, options) = parseCommandLine(definition, arguments)
            #expect(outcome.exitCode == .success, "\(definition.specification.name) \(arguments): \(outcome.standardError)")
            return options
        }
        #expect(parsed(ListCommand.self, ["--json", "--deleted"]) == ListOptions(json: true, deleted: true))
        #expect(
            parsed(PlayCommand.self, ["Stand", "--device", "hw:0", "--from", "01:00"])
                == PlayOptions(memo: "Stand", device: "hw:0", start: .seconds(60)))
        #expect(parsed(RenameCommand.self, ["42", "New title"]) == RenameOptions(memo: "42", title: "New title"))
        #expect(parsed(DeleteCommand.self, ["42"]) == DeleteOptions(memo: "42"))
        #expect(parsed(RestoreCommand.self, ["Idea"]) == RestoreOptions(memo: "Idea"))
        #expect(parsed(PurgeCommand.self, ["--all"]) == PurgeOptions(target: .all))
        #expect(
            parsed(ExportCommand.self, ["42", "/tmp/x.ogg", "--format", "ogg"])
                == ExportOptions(memo: "42", path: "/tmp/x.ogg", format: .ogg))
        #expect(parsed(DevicesCommand.self, []) == DevicesOptions())

        #expect(parsed(PurgeCommand.self, ["Old idea"]) == PurgeOptions(target: .memo("Old idea")))
        #expect(parsed(ListCommand.self, []) == ListOptions())
        #expect(parsed(RenameCommand.self, ["--", "-7", "--json"]) == RenameOptions(memo: "-7", title: "--json"))
    }

    @Test func theAppRunsWithoutASubcommand() throws {
        // `voicememo` alone hands the app the options of no arguments.
        #expect(try AppCommand.options(from: []) == AppOptions())
    }

    @Test func subcommandsSeeTheEnvironment() {
        let received = ReceivedValue<Bool>()
        let devices = Subcommand(
            specification: DevicesCommand.specification,
            perform: { _, context in
                received.store(context.allowsColor)
                return .success
            })
        _ = runSubcommand(devices, [], environment: ["NO_COLOR": "1"])
        #expect(received.value == false)
        _ = runSubcommand(devices, [], environment: [:])
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
        let (outcome, options) = parseCommandLine(GainCommand.self, ["--json", text])
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        #expect(options == GainOptions(change: change, json: true))
    }
}
