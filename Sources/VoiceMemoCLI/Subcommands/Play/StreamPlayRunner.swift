import Platform
import ArgumentParsing
import Audio
import Dispatch
import Glibc
import Vocabulary
import Metering
import AppRuntime
import Streaming
import Synchronization

/// Everything `voicememo play URL` needs once its arguments are parsed.
struct StreamPlayRequest {
    var url: String
    var device: String
    var json: Bool
    var options: StreamOptions
    /// `VOICEMEMO_EVENT_LOG`'s file, when set: when it connected and when the device started.
    var eventLogEnvironment: [String: String] = [:]
}

extension StreamPlayRequest {
    /// - Throws: `UsageError` for the memo-only flags (`--from`, `--speed`, `--pitch`, `--volume`,
    ///   `--skip-silence`, `--enhance`) and a `--ca-file` (or `VOICEMEMO_CA_FILE`) that is not a readable file.
    init(_ options: PlayOptions, context: CommandContext) throws {
        let memoOnly: [(String, Bool)] = [
            ("--from", options.start != nil), ("--speed", options.speed != nil), ("--pitch", options.pitch != nil),
            ("--volume", options.volume != nil), ("--skip-silence", options.skipsSilence),
            ("--enhance", options.enhances),
        ]
        if let flag = memoOnly.first(where: { $0.1 })?.0 {
            throw UsageError.invalidValue(
                argument: flag, value: options.memo,
                rejection: .custom(problem: "applies to memos, not to a network stream", allowed: "leave \(flag) out for a URL"))
        }
        let device = options.device ?? AutomaticDevices.playbackDevice
        var streamOptions = StreamOptions()
        if let timeout = options.timeout { streamOptions.timeout = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18 }
        if let attempts = options.reconnectAttempts { streamOptions.reconnectAttempts = attempts }
        let authorities = options.certificateAuthorities ?? context.environment["VOICEMEMO_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        if let authorities {
            let name = options.certificateAuthorities != nil ? "--ca-file" : "VOICEMEMO_CA_FILE"
            if let problem = Self.problem(withCertificateFile: authorities) {
                throw UsageError.invalidValue(
                    argument: name, value: authorities,
                    rejection: .custom(problem: problem, allowed: "a readable PEM file of certificate authorities"))
            }
            streamOptions.certificateAuthorities = authorities
        }
        guard StreamURL(options.memo) != nil else {
            throw UsageError.invalidValue(
                argument: "URL", value: options.memo,
                rejection: .custom(problem: "has no host (or a bad port)", allowed: "http://HOST[:PORT]/PATH or https://…"))
        }
        self.init(
            url: options.memo, device: InputName.playbackDevice(named: device),
            json: options.json, options: streamOptions, eventLogEnvironment: context.environment)
    }

    private static func problem(withCertificateFile path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return "does not exist" }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return "is not a regular file" }
        guard access(path, R_OK) == 0 else { return "cannot be read" }
        return nil
    }
}

/// Plays a network stream until it ends, fails, or a stop signal.
///
/// Exit status: 0 at the end of a stream with a length, and when SIGINT/SIGTERM/SIGHUP stops
/// it (a live stream plays until stopped); 1 when it cannot be played or fails mid-way, with
/// the cause (`StreamError`). Text on stderr: "buffering …", the stream's name, each title,
/// each reconnect; with `--json` the same as one JSON object per line on stdout.
enum StreamPlayRunner {
    static func run(_ request: StreamPlayRequest, console: Console) throws -> ExitCode {
        StopSignals.install()
        defer { StopSignals.uninstall() }
        let ended = DispatchSemaphore(value: 0)
        let failure = Mutex<StreamError?>(nil)
        let queue = DispatchQueue(label: "voicememo.stream.events")
        let live = console.isErrorTerminal && !request.json ? LiveLineHolder(console: console) : nil
        let eventLog = EventLog(environment: request.eventLogEnvironment)
        defer { eventLog?.close() }
        let player = StreamPlayer(
            url: request.url, device: request.device, options: request.options, eventQueue: queue
        ) { event in
            switch event {
            case .buffering: eventLog?.note("stream_buffering")
            case .playing: eventLog?.note("stream_playing")
            default: break
            }
            if request.json {
                console.printJSON(StreamEventJSON.line(for: event))
            } else {
                live?.clear()
                if let text = StreamEventText.line(for: event) { console.writeError(text + "\n") }
            }
            switch event {
            case .finished: ended.signal()
            case .failed(let error):
                failure.withLock { $0 = error }
                ended.signal()
            default: break
            }
        }
        eventLog?.note("stream_connecting")
        player.play()
        Waiting.wait(for: ended, tickingAtOnce: false) {
            guard StopSignals.pending == nil else { return false }
            player.updateMeters()
            queue.sync { live?.show(player: player) }
            return true
        }
        player.stop()
        queue.sync { live?.clear() }
        if let error = failure.withLock({ $0 }) {
            if !request.json { console.printErrorMessage(TerminalText.safe(error.description)) }
            return ExitCode.failure
        }
        if let signal = StopSignals.pending, !request.json {
            console.printErrorMessage(
                "stream stopped by \(StopSignals.name(signal)) after \(DisplayFormat.elapsedTime(seconds: player.playedSeconds))")
        }
        return ExitCode.success
    }
}

/// The live line on a terminal: ▶ elapsed, the title, a level bar per channel.
final class LiveLineHolder: Sendable {
    private let console: Console
    /// Made with the first line, once the stream's channels are known.
    private let levelBars = Mutex<LevelBars?>(nil)

    init(console: Console) { self.console = console }

    func show(player: StreamPlayer) {
        guard let description = player.streamDescription else { return }
        levelBars.withLock { held in
            let bars = held ?? LevelBars(console: console, channels: description.format.channels)
            held = bars
            show(player: player, description: description, bars: bars)
        }
    }

    private func show(player: StreamPlayer, description: StreamDescription, bars: LevelBars) {
        var line = "▶ " + DisplayFormat.elapsedTime(seconds: player.playedSeconds)
        if let duration = description.duration { line += " / " + DisplayFormat.elapsedTime(seconds: duration) }
        if let title = player.title, !title.isEmpty { line += "  " + TerminalText.safe(title) }
        line += bars.bars { player.averagePower(forChannel: $0) }
        // Cut to the terminal's width: a wrapped line would be redrawn as a new line each time.
        var size = winsize()
        let columns = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 1 ? Int(size.ws_col) : 80
        bars.redraw(TerminalWidth.truncated(line, to: columns - 1))
    }

    func clear() { levelBars.withLock { $0?.clear() } }
}
