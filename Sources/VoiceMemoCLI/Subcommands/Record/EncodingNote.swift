import Platform
import Audio
import Dispatch
import SoundFiles
import Synchronization

/// What `record` says on standard error while an MP3, Ogg Vorbis or ALAC memo waits for its
/// encoder at the end (`Recorder.finishingProgress`): nothing when the encoder kept up (a live
/// input: the rest takes a moment), else a line per 10 % once the wait passes half a second —
/// an unpaced input records faster than the low-priority encoder follows.
final class EncodingNote: Sendable {
    private let console: Console
    private let format: FileFormat
    /// When the wait began (nil: not waiting), and the last tenth shown.
    private let state = Mutex<(since: ContinuousClock.Instant?, shownTenth: Int)>((nil, -1))

    init(console: Console, format: FileFormat) {
        self.console = console
        self.format = format
    }

    /// Called while the recording waits for its encoder; shows the progress when it is due.
    func show(_ progress: Double?, now: ContinuousClock.Instant = .now) {
        guard let progress, progress < 1 else { return }
        let line = state.withLock { state -> String? in
            let since = state.since ?? now
            state.since = since
            let tenth = Int(progress * 10)
            guard now - since >= .milliseconds(500), tenth > state.shownTenth else { return nil }
            state.shownTenth = tenth
            return "encoding the \(Self.name(format)): \(tenth * 10) % (the recording is complete; the encoder fell behind)"
        }
        if let line { console.printErrorMessage(line) }
    }

    /// Stops `recorder`, showing the encoder's progress from another thread while `stop()` runs.
    func stop(_ recorder: Recorder) {
        Waiting.run("vm-stop", { recorder.stop() }) { show(recorder.finishingProgress) }
    }

    private static func name(_ format: FileFormat) -> String {
        switch format {
        case .mp3: "MP3"
        case .ogg: "Ogg Vorbis"
        case .caf: "ALAC"
        case .m4a: "AAC"
        default: format.rawValue
        }
    }
}
