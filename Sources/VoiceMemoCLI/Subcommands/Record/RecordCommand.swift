import AppRuntime
import Foundation
import SoundFiles
import ArgumentParsing

/// `voicememo record [OPTIONS]`: record one memo into the library and print its id.
enum RecordCommand: SubcommandDefinition {
    static let duration = Option<Duration>(
        name: "duration", shortName: "d", valueName: "T",
        help: "Stop after T of recorded audio (more than 0): 90, 1.5s, 250ms, 2m, 1h, 01:30 or 1:02:03.",
        parser: .positiveDuration)
    static let delay = Option<Duration>(
        name: "delay", valueName: "T", help: "Start recording after T.", parser: .duration)
    static let at = Option<ScheduledStart>(
        name: "at", valueName: "TIME",
        help: "Start recording at TIME, local: HH:MM or HH:MM:SS (the next such time) or "
            + "YYYY-MM-DDTHH:MM[:SS]; nothing is opened until then, and the wait uses no CPU. "
            + "With --duration: record the 14:00 call for 45 minutes as --at 14:00 --duration 45m.",
        parser: ValueParser<String>.nonEmptyText.map { text throws(ValueRejection) -> ScheduledStart in
            do throws(ScheduledStart.Problem) {
                return try ScheduledStart.parse(text, now: Date(), calendar: Calendar.current)
            } catch {
                throw .custom(problem: error.words.problem, allowed: error.words.allowed)
            }
        })
    static let title = Option<String>(
        name: "title", shortName: "t", valueName: "TEXT",
        help: "The memo's title.", defaultDescription: "Memo DATE TIME", parser: .nonEmptyText)
    static let format = Option<FileFormat>(
        name: "format", valueName: "F",
        help: "The file format: wav, flac, ogg, opus, mp3, caf, aiff or m4a (AAC). A WAV past 4 GiB "
            + "(6 h 12 min of 48 kHz stereo 16-bit) becomes RF64; an AIFF (and a WAV in ima-adpcm) cannot "
            + "pass 4 GiB: a longer --duration is refused, and a recording without one stops there, kept.",
        defaultDescription: RecordingSettings.defaultFormat.rawValue, parser: .choice(otherNames: FileFormat.otherNames))
    static let encoding = Option<Encoding>(
        name: "encoding", valueName: "E",
        help: "The sample encoding, where the format allows it: pcm16, pcm24, pcm32, float, "
            + "alac16, alac24, ulaw, alaw or ima-adpcm.",
        defaultDescription: "the format's usual one", parser: encodingParser)
    /// The encodings a person chooses; Vorbis, Opus, MP3 and AAC follow from `--format`.
    static let chosenEncodings = Encoding.allCases.filter { ![.vorbis, .opus, .mp3, .aac].contains($0) }
    static let encodingParser = ValueParser<String>.oneOf(chosenEncodings.map(\.rawValue)).map {
        text throws(ValueRejection) -> Encoding in
        guard let encoding = Encoding(rawValue: text) else {
            throw .notAChoice(choices: chosenEncodings.map(\.rawValue), suggestion: nil)
        }
        return encoding
    }
    static let rate = Option<Int>(
        name: "rate", shortName: "r", valueName: "HZ",
        help: "The sample rate in Hz: 48000, 48k, 44.1k.",
        defaultDescription: String(RecordingSettings.defaultSampleRate),
        parser: .sampleRate(in: SharedArguments.sampleRates))
    static let channels = Option<Int>(
        name: "channels", shortName: "c", valueName: "N", help: "The number of channels, 1 to 32.",
        defaultDescription: String(RecordingSettings.defaultChannels), parser: .integer(in: 1...32))
    static let quality = Option<Quality>(
        name: "quality", valueName: "Q",
        help: "VBR quality or compression level: min, low, medium, high or max.",
        defaultDescription: RecordingSettings.defaultQuality.rawValue, parser: .choice)
    static let output = Option<String>(
        name: "output", shortName: "o", valueName: "PATH",
        help: "Write this file instead of adding a memo to the library. An existing file is "
            + "refused unless --force; a folder, a device, a FIFO and any path inside the library "
            + "folder are refused even then.",
        parser: ValueParser.nonEmptyText.completing(.file))
    static let force = Flag(
        name: "force", help: "With --output: replace a regular file already at PATH.")
    static let vox = Flag(
        name: "vox",
        help: "Voice-activated: wait for speech at the threshold's level, stop after the "
            + "silence after it; each utterance becomes its own memo.")
    static let voxThreshold = Option<Double>(
        name: "vox-threshold", valueName: "DB", help: "The level that starts a recording, in dBFS.",
        parser: .number(in: -160...0, unit: "dB"))
    static let voxSilence = Option<Duration>(
        name: "vox-silence", valueName: "T", help: "How long a silence ends a recording (3 s unless set).",
        parser: .duration)
    static let voxMinimum = Option<Duration>(
        name: "vox-min", valueName: "T", help: "Utterances shorter than T are not kept.",
        parser: .duration)
    static let voxPreroll = Option<Duration>(
        name: "vox-preroll", valueName: "T",
        help: "How much audio from before the threshold was crossed to keep.", parser: .duration)
    static let voxCalibrate = Option<Duration>(
        name: "vox-calibrate", valueName: "T",
        help: "Listen for T first (up to 60 s) and set the threshold 12 dB above the room's level "
            + "(its RMS over T) instead of --vox-threshold.", parser: .duration)
    static let voxLevelOnly = Flag(
        name: "vox-level-only",
        help: "Start and end recordings on the level alone, without listening for speech: any sound "
            + "at the threshold (a tone, a door) starts one.")
    static let json = Flag(
        name: "json", help: "Print the new memo as JSON when recording stops, instead of its id at the start.")
    static let play = Flag(
        name: "play", help: "Play the recording on the default ALSA device as soon as it is saved (the config's play_after_stop = true does the same).")

    static let replay = Flag(
        name: "replay",
        help: "With --vox: play each kept take back as soon as it ends (the talking-app replay); "
            + "the input is ignored while it plays, so the replay never starts a take.")
    static let replayPitch = Option<Double>(
        name: "pitch", valueName: "SEMITONES", help: "With --replay: replay pitched, -12 to 12 semitones (7: a cartoon voice).",
        defaultDescription: "0", parser: .number(in: -12...12, unit: "semitones"))
    static let captions = Flag(
        name: "captions",
        help: "Show the words as they are recognised while recording: a draft, on standard error "
            + "(with --json, caption events on standard output); the saved memo is transcribed whole as usual.")
    static let echoCancel = Flag(
        name: "echo-cancel",
        help: "With a meeting (--source meeting or pulse:A+pulse:B): take what the desktop plays (the "
            + "second input) out of the microphone's channels with WebRTC's echo canceller, for a meeting "
            + "on loudspeakers; the config's echo_cancel = on does the same.")
    static let noTranscribe = Flag(
        name: "no-transcribe",
        help: "Do not transcribe the memo once saved (transcribe = auto, the default, does; it says so on standard error).")

    static let specification = CommandSpecification(
        name: "record",
        abstract: "Record one memo into the library and print its id.",
        discussion: "The new memo's id is printed on standard output as soon as the input is open, "
            + "before any audio, so a script can use it while the recording runs (an input that cannot "
            + "be opened prints no id and leaves no memo); if nothing "
            + "is recorded (interrupted at once, a full disk, an input that gives nothing) the memo is "
            + "removed again and the exit status is 1 (130 when interrupted). With --json, the whole "
            + "memo is printed when recording stops instead; with --output, the file's path. "
            + "Recording stops after --duration, or on Ctrl-C, SIGTERM or SIGHUP; the memo "
            + "is kept either way. With transcribe = auto (the default) a memo is then transcribed "
            + "(progress on standard error; Ctrl-C stops it, the memo stays) unless --no-transcribe. "
            + "Flags override the config file.",
        options: [
            duration, delay, at, title, format, encoding, rate, channels, quality,
            SharedArguments.source, output, force, vox, voxThreshold, voxSilence, voxMinimum, voxPreroll,
            voxCalibrate, voxLevelOnly, replay, replayPitch, json, play, captions, echoCancel, noTranscribe,
        ])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> RecordOptions {
        var options = RecordOptions(
            duration: try arguments.value(of: duration),
            delay: try arguments.value(of: delay),
            title: try arguments.value(of: title),
            format: try arguments.value(of: format),
            encoding: try arguments.value(of: encoding),
            sampleRate: try arguments.value(of: rate),
            channels: try arguments.value(of: channels),
            quality: try arguments.value(of: quality),
            source: try arguments.value(of: SharedArguments.source),
            outputPath: try arguments.value(of: output),
            force: arguments.isSet(force),
            json: arguments.isSet(json))
        options.startsAt = try arguments.value(of: at)
        if options.force, options.outputPath == nil {
            throw .missingCompanion(option: force.longForm, requirement: output.longForm)
        }
        options.playsAfterStop = arguments.isSet(play)
        options.skipsTranscription = arguments.isSet(noTranscribe)
        options.showsCaptions = arguments.isSet(captions)
        options.cancelsEcho = arguments.isSet(echoCancel)
        if options.showsCaptions, arguments.isSet(vox) {
            throw .conflictingArguments(captions.longForm, vox.longForm)
        }
        if options.playsAfterStop, arguments.isSet(vox) {
            throw .conflictingArguments(play.longForm, vox.longForm)
        }
        options.replaysTakes = arguments.isSet(replay)
        options.replayPitch = try arguments.value(of: replayPitch)
        if options.replaysTakes, !arguments.isSet(vox) {
            throw .missingCompanion(option: replay.longForm, requirement: vox.longForm)
        }
        if options.replayPitch != nil, !options.replaysTakes {
            throw .missingCompanion(option: replayPitch.longForm, requirement: replay.longForm)
        }
        let voiceActivation = VoiceActivationOptions(
            thresholdDB: try arguments.value(of: voxThreshold),
            silence: try arguments.value(of: voxSilence),
            minimumLength: try arguments.value(of: voxMinimum),
            preroll: try arguments.value(of: voxPreroll),
            calibration: try arguments.value(of: voxCalibrate),
            levelOnly: arguments.isSet(voxLevelOnly))
        let voiceActivationParameters: [any OptionDeclaring] = [voxThreshold, voxSilence, voxMinimum, voxPreroll, voxCalibrate, voxLevelOnly]
        if arguments.isSet(vox) {
            options.voiceActivation = voiceActivation
        } else if let given = voiceActivationParameters.first(where: { arguments.contains($0) }) {
            throw .missingCompanion(option: given.specification.longForm, requirement: vox.longForm)
        }
        if let source = options.source, let sampleRate = options.sampleRate,
            let rejection = source.rejection(atSampleRate: sampleRate),
            let text = arguments.text(of: SharedArguments.source)
        {
            throw .invalidValue(argument: SharedArguments.source.longForm, value: text, rejection: rejection)
        }
        return options
    }

    static func run(_ options: RecordOptions, context: CommandContext) throws -> ExitCode {
        try RecordRunner.run(RecordRequest(options, context: context), context: context)
    }
}
