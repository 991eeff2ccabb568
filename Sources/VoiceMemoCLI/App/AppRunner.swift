import Platform
import AppRuntime
import Audio
import Foundation
import Synchronization
import SoundFiles
import Terminal
import Transcription
import Interface
import Vocabulary

/// `voicememo` with no subcommand: sets up the library, signals and the terminal, runs
/// the app until it quits, and gives the terminal back on every way out.
enum AppRunner {
    /// Flags over the config file over the built-in defaults; a bad config file stops the
    /// app before the screen is taken, naming the file, the line and what is allowed.
    static func run(_ options: AppOptions, context: CommandContext) throws -> ExitCode {
        let configuration = try context.configuration()
        let source = configuration.input(options.source, automatic: AutomaticDevices.input)
        let fileInfo = try source.fileInfo()
        let settings = RecordingSettings(
            format: options.format ?? configuration.format ?? RecordingSettings.defaultFormat,
            encoding: options.format == nil ? configuration.encoding : nil,
            sampleRate: options.sampleRate ?? fileInfo?.sampleRate ?? configuration.sampleRate ?? RecordingSettings.defaultSampleRate,
            channels: options.channels ?? fileInfo?.channels ?? configuration.channels ?? RecordingSettings.defaultChannels,
            quality: configuration.quality ?? RecordingSettings.defaultQuality)
        do {
            try settings.validate()
        } catch {
            throw CommandFailure(error.message, exitCode: .usageError)
        }

        StopSignals.install()
        defer { StopSignals.uninstall() }
        // Served before the screen is taken, so a refusal (another process serves the library)
        // is said where it can be read; the requests wait for the loop.
        let loopHolder = Mutex<AppLoop?>(nil)
        let served = ControlConnection.serve(context: context) { request in
            guard let loop = loopHolder.withLock({ $0 }) else { return .error("the app is starting; ask again") }
            return loop.answer(request)
        }
        let server = try? served.get()
        defer { server?.close() }
        var refusal: String?
        if case .failure(let failure) = served {
            refusal = failure.message + "; the app runs without it"
            context.console.printErrorMessage(failure.message + "; the app runs without it")
        }
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(allowsColor: context.allowsColor)
        } catch {
            throw CommandFailure(error.description)
        }
        defer { terminal.end() }
        let environment = context.environment
        var runtime = AppRuntimeSettings(
            source: source, recording: settings,
            playbackDevice: options.playbackDevice ?? configuration.playbackDevice ?? AutomaticDevices.playbackDevice,
            transcriptionModel: configuration.transcriptionModel ?? SpeechModel.defaultDirectory,
            environment: environment, stopRequested: { StopSignals.pending != nil },
            keepSettings: { changes throws(SettingsNotSaved) in
                try ConfigurationWriter.keep(changes, environment: environment)
            })
        runtime.titlesFromWords = configuration.autoTitle ?? true
        runtime.whenServerSourceLost = configuration.onSourceLost ?? .stop
        runtime.cancelsMeetingEcho = configuration.echoCancel ?? false
        let loop = AppLoop(terminal: terminal, settings: runtime) { state in
            state.apply(configuration)
            state.scheduled = options.scheduledStart.map { start in
                ScheduledRecording(start: start.time, duration: options.duration, label: TerminalText.safe(start.text))
            }
        }
        loopHolder.withLock { $0 = loop }
        do {
            try loop.runUntilQuit()
        } catch {
            throw CommandFailure(error.description)
        }
        // Said again once the screen is given back: the first was under it.
        if let refusal { context.console.printErrorMessage(refusal) }
        return .success
    }

}
