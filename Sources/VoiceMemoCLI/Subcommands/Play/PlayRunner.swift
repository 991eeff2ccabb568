import Platform
import ArgumentParsing
import Audio
import Dispatch
import Metering
import SoundFiles

/// Plays a file to its end, a stop signal, or an error.
///
/// Exit status: 0 at the end, and also when SIGINT, SIGTERM or SIGHUP stops playback
/// (stopping on request is not a failure and loses nothing: the exit codes keep 130 for
/// "interrupted before anything was kept", which is about recording); 1 for a file or
/// device that cannot be played, or a failure mid-way; 2 for a `--from` beyond the end.
enum PlayRunner {
    static func run(_ request: PlayRequest, console: Console) throws -> ExitCode {
        StopSignals.install()
        defer { StopSignals.uninstall() }
        let finished = DispatchSemaphore(value: 0)
        let events = PlayerEvents(didFinishPlaying: { _ in finished.signal() })
        // On a terminal the keys may change the speed, so the player is adjustable (as the app's).
        let keys = TerminalKeys()
        defer { keys?.restore() }
        if request.adjustments.enhances, !canEnhance(request.file, console: console) { return ExitCode.failure }
        let player: Player
        do {
            player = try Player(
                url: request.file, device: request.device, adjustable: !request.adjustments.isIdentity || keys != nil,
                eventQueue: DispatchQueue(label: "voicememo.play.events"), events: events)
            try player.setAdjustments(request.adjustments)
        } catch {
            console.printErrorMessage(error.message)
            return ExitCode.failure
        }
        if let start = request.start {
            guard start < player.duration else {
                throw UsageError.invalidValue(
                    argument: "--from", value: secondsText(start),
                    rejection: .custom(
                        problem: "is at or beyond the end of \(request.shownName ?? request.file)",
                        allowed: "it is \(DisplayFormat.seconds(player.duration)) long; start before that"))
            }
            player.currentTime = start
        }
        do {
            try player.play()
        } catch {
            if let interrupted = StopSignals.interruptedWhileOpening("the playback device") {
                console.printErrorMessage(interrupted)
                return ExitCode.interrupted
            }
            console.printErrorMessage(error.message)
            return ExitCode.failure
        }
        let (stoppedAt, keyError) = watch(player, keys: keys, until: finished, console: console)
        if let keyError {
            console.printErrorMessage(keyError.message)
            return ExitCode.failure
        }
        return report(player, request: request, stoppedAt: stoppedAt, console: console)
    }

    /// Whether `file`'s rate and channels can be enhanced (`--enhance`); if not, says why.
    private static func canEnhance(_ file: String, console: Console) -> Bool {
        let format: (sampleRate: Int, channels: Int)
        do {
            let reader = try SoundFileReader(path: file)
            format = (reader.info.sampleRate, reader.info.channels)
            reader.close()
        } catch {
            console.printErrorMessage("\(error)")
            return false
        }
        if let problem = PlaybackAdjustments.enhancementProblem(sampleRate: format.sampleRate, channels: format.channels) {
            console.printErrorMessage("cannot play it enhanced: \(problem)")
            return false
        }
        return true
    }

    /// Shows the live line (on a terminal) and applies the keys until the end, a stop signal,
    /// `q` or a key's failure; then stops the player and gives the terminal its modes back.
    ///
    /// - Returns: where playback stopped, and the failure of a key's change, if any.
    private static func watch(
        _ player: Player, keys: TerminalKeys?, until finished: DispatchSemaphore, console: Console
    ) -> (stoppedAt: Double, keyError: PlayerError?) {
        let live = console.isErrorTerminal ? PlayLiveLine(console: console, channels: player.numberOfChannels) : nil
        var keyError: PlayerError?
        // Keys are read every 30 ms, so that one pressed is answered at once.
        Waiting.wait(for: finished, every: keys == nil ? 100 : 30, tickingAtOnce: false) {
            guard StopSignals.pending == nil else { return false }
            for key in keys?.read() ?? [] {
                do throws(PlayerError) {
                    guard try keys?.apply(key, to: player) ?? true else { return false }
                } catch {
                    keyError = error
                    return false
                }
            }
            player.updateMeters()
            live?.show(player: player)
            return true
        }
        let stoppedAt = player.currentTime
        player.stop()
        live?.clear()
        keys?.restore()
        return (stoppedAt, keyError)
    }

    /// The end of playback in words: its failure, where a signal stopped it, underruns,
    /// silence skipped, clipping.
    private static func report(_ player: Player, request: PlayRequest, stoppedAt: Double, console: Console) -> ExitCode {
        if let error = player.error {
            console.printErrorMessage(error.message)
            return ExitCode.failure
        }
        if let signal = StopSignals.pending {
            console.printErrorMessage(
                "playback stopped by \(StopSignals.name(signal)) at \(DisplayFormat.elapsedTime(seconds: stoppedAt)) of \(DisplayFormat.elapsedTime(seconds: player.duration))")
        }
        if player.underruns > 0 {
            console.printErrorMessage("warning: \(player.underruns) underrun(s) during playback (recovered)")
        }
        if request.adjustments.skipsSilence {
            console.printErrorMessage(String(format: "skipped %.1f s of silence", player.skippedSeconds))
        }
        if player.clippedSamples > 0 {
            console.printErrorMessage(
                "warning: at \(Int((request.adjustments.volume * 100).rounded())) % the volume clipped \(player.clippedSamples) sample(s); lower --volume")
        }
        return ExitCode.success
    }

    /// Seconds as `--from` accepts them: "5s", "1.5s".
    private static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? "\(Int64(seconds))s" : "\(seconds)s"
    }
}
