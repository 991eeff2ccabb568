import VoiceActivation
import Platform
import ArgumentParsing
import Audio
import Foundation
import MemoLibrary
import Metering
import AppRuntime
import SoundFiles
import Transcription

/// Turns parsed options into what the engine runs: fills in defaults and refuses
/// combinations that parsing alone cannot see.
extension RecordRequest {
    /// Flags over the config file (`context.configuration()`) over the built-in defaults;
    /// a file source's own rate and channels come before the config's.
    init(_ options: RecordOptions, context: CommandContext) throws {
        try self.init(options, context: context, configuration: try context.configuration())
    }

    init(_ options: RecordOptions, context: CommandContext, configuration: Configuration) throws {
        let voiceActivation = try options.voiceActivation.map {
            try Self.voiceActivationSettings($0, over: configuration.voiceActivationSettings)
        }
        if voiceActivation != nil, options.outputPath != nil {
            throw UsageError.conflictingArguments("--output", "--vox")
        }
        if voiceActivation != nil, options.delay != nil {
            throw UsageError.conflictingArguments("--delay", "--vox")
        }
        if options.startsAt != nil, options.delay != nil {
            throw UsageError.conflictingArguments("--at", "--delay")
        }
        if voiceActivation != nil, options.startsAt != nil {
            throw UsageError.conflictingArguments("--at", "--vox")
        }
        if options.outputPath == nil, let title = options.title {
            try MemoTitleCheck.check(title)
        }
        let output = options.outputPath
        let source = configuration.input(options.source, cancelsEcho: options.cancelsEcho, automatic: AutomaticDevices.input)
        if options.cancelsEcho, !source.cancelsEcho {
            throw CommandFailure(
                "--echo-cancel takes what the desktop plays out of a meeting's microphone channels, so it needs a "
                    + "meeting: --source meeting or pulse:A+pulse:B, not \(source.description)",
                exitCode: .usageError)
        }
        let fileInfo = try source.fileInfo()
        let format = options.format ?? output.flatMap(RecordingSettings.inferred(fromPath:)) ?? configuration.format ?? RecordingSettings.defaultFormat
        let settings = RecordingSettings(
            format: format,
            encoding: options.encoding ?? (options.format == nil ? configuration.encoding : nil),
            sampleRate: options.sampleRate ?? fileInfo?.sampleRate ?? configuration.sampleRate ?? RecordingSettings.defaultSampleRate,
            channels: options.channels ?? fileInfo?.channels ?? configuration.channels ?? RecordingSettings.defaultChannels,
            quality: options.quality ?? configuration.quality ?? RecordingSettings.defaultQuality)
        do {
            try settings.validate(path: output)
        } catch {
            throw CommandFailure(error.message, exitCode: .usageError)
        }
        if let rejection = source.rejection(atSampleRate: settings.sampleRate) {
            throw UsageError.invalidValue(argument: "--source", value: source.description, rejection: rejection)
        }
        if source.cancelsEcho, !WebRTCEchoCanceller.supports(sampleRate: settings.sampleRate) {
            let reason = EchoCancellerError.unsupportedSampleRate(settings.sampleRate).description
            throw CommandFailure("\(options.cancelsEcho ? "--echo-cancel" : "echo_cancel = on"): \(reason)", exitCode: .usageError)
        }
        if let seconds = options.duration?.seconds, let limit = settings.maximumFrames,
            seconds * Double(settings.sampleRate) > Double(limit)
        {
            // Refused before anything exists; without --duration the recording stops there.
            let longest = DisplayFormat.elapsedTime(frames: limit, sampleRate: settings.sampleRate)
            throw CommandFailure(
                "--duration: \(settings.format == .wav ? "a WAV in \(settings.encoding.rawValue)" : "an \(settings.format.displayName) file") "
                    + "cannot grow past 4 GiB, \(longest) at these settings; record WAV in PCM (RF64 past 4 GiB), CAF or FLAC for longer",
                exitCode: .usageError)
        }
        if let output {
            // Never over another file unless --force, never over a device or into the library.
            _ = try LibraryAccess.perform { () throws(MemoLibraryError) in
                try OutputDestination.check(
                    output, libraryFolder: LibraryLocation.folder(environment: context.environment), replacing: options.force)
            }
            // Never over a killed recording's audio, kept beside its file until it is recovered.
            if let refusal = RecoverFileRunner.waitingRecording(at: output) { throw CommandFailure(refusal) }
        }
        self.init(
            output: output ?? "", addsMemo: output == nil, title: options.title, settings: settings, source: source,
            duration: options.duration?.seconds, delay: options.delay?.seconds,
            metadata: SoundFileMetadata(
                title: options.title, comment: nil, date: SoundFileMetadata.dateText(secondsSince1970: Date().timeIntervalSince1970),
                software: Product.software),
            json: options.json,
            paced: context.isPaced,
            voiceActivation: voiceActivation)
        startsAt = options.startsAt
        // `--replay`, or with `--vox` the config's vox.replay; `--pitch` over vox.replay_pitch.
        let replays = options.replaysTakes || (voiceActivation != nil && configuration.voxReplay == true)
        replayPitch = replays ? options.replayPitch ?? configuration.voxReplayPitch ?? 0 : nil
        playsAfterStop = options.playsAfterStop || (voiceActivation == nil && configuration.playAfterStop == true)
        if voiceActivation == nil, options.showsCaptions || configuration.captions == true {
            captionModel = configuration.transcriptionModel ?? SpeechModel.defaultDirectory
        }
        if output == nil, voiceActivation == nil, !options.skipsTranscription, (configuration.transcribeMode ?? .auto) == .auto {
            transcriptionModel = configuration.transcriptionModel ?? SpeechModel.defaultDirectory
        }
        titlesFromWords = configuration.autoTitle ?? true
    }

    /// The `--vox*` values over `base` (the config file's, else the built-in defaults), each
    /// checked and refused naming its flag.
    static func voiceActivationSettings(
        _ options: VoiceActivationOptions, over base: VoiceActivationSettings = VoiceActivationSettings()
    ) throws -> VoiceActivationSettings {
        var settings = base
        if let threshold = options.thresholdDB { settings.startThresholdDB = threshold }
        if let silence = options.silence?.seconds {
            guard silence > 0, silence <= 3600 else {
                throw CommandFailure("--vox-silence: \"\(silence)\" is out of range; use more than 0 s, up to 1 h", exitCode: .usageError)
            }
            settings.hangTime = silence
        }
        if let minimum = options.minimumLength?.seconds {
            guard minimum <= 3600 else {
                throw CommandFailure("--vox-min: \"\(minimum)\" is out of range; use 0 s up to 1 h", exitCode: .usageError)
            }
            settings.minimumTake = minimum
        }
        if let preroll = options.preroll?.seconds {
            guard preroll <= VoiceActivationSettings.longestPreRoll else {
                throw CommandFailure("--vox-preroll: \"\(preroll)\" is out of range; use 0 s up to \(Int(VoiceActivationSettings.longestPreRoll)) s", exitCode: .usageError)
            }
            settings.preRoll = preroll
        }
        if let calibration = options.calibration?.seconds {
            guard calibration > 0, calibration <= 60 else {
                throw CommandFailure("--vox-calibrate: \"\(calibration)\" is out of range; use more than 0 s, up to 60 s", exitCode: .usageError)
            }
            if options.thresholdDB != nil {
                throw CommandFailure("--vox-calibrate and --vox-threshold cannot be used together: the calibration sets the threshold", exitCode: .usageError)
            }
            settings.calibrationTime = calibration
        }
        if options.levelOnly { settings.listensForSpeech = false }
        return settings
    }
}

extension MeterRequest {
    /// Flags over the config file's `source`, `rate` and `channels`.
    init(_ options: MeterOptions, context: CommandContext) throws {
        let configuration = try context.configuration()
        let source = configuration.input(options.source, automatic: AutomaticDevices.input)
        let fileInfo = try source.fileInfo()
        if let fileInfo, !RecordingSettings.channelRange.contains(fileInfo.channels) {
            throw CommandFailure(
                "--source: \(source.description) has \(fileInfo.channels) channels; the meter takes "
                    + "\(RecordingSettings.channelRange.lowerBound) to \(RecordingSettings.channelRange.upperBound)",
                exitCode: .usageError)
        }
        self.init(
            source: source, duration: options.duration?.seconds, json: options.json, loudness: options.loudness,
            sampleRate: fileInfo?.sampleRate ?? configuration.sampleRate ?? RecordingSettings.defaultSampleRate,
            channels: fileInfo?.channels ?? configuration.channels ?? RecordingSettings.defaultChannels,
            paced: context.isPaced,
            alert: options.alert)
    }
}

extension CommandContext {
    /// Generated sources run in real time unless `VOICEMEMO_UNPACED=1` (tests only:
    /// a file source then plays in as fast as it can be read).
    var isPaced: Bool { environment["VOICEMEMO_UNPACED"] != "1" }
}

extension InputSource {
    /// A file source's rate and channels (the defaults for recording from it).
    ///
    /// - Throws: `CommandFailure` naming the file and why it cannot be read.
    func fileInfo() throws -> SoundFileInfo? {
        guard case .file(let path) = self else { return nil }
        do {
            let reader = try SoundFileReader(path: path)
            defer { reader.close() }
            return reader.info
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
