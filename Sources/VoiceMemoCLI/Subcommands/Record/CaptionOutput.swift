import Audio
import Synchronization
import Transcription
import Vocabulary

/// `record --captions`: the draft words while recording. The captioner's thread only queues its
/// reports here; the recording's own loop (`RecordRunner.watch`, every 100 ms) prints them, so
/// they never interleave with the live line.
///
/// On a terminal, each settled utterance is a line on standard error ("draft: …") and the
/// utterance in progress ends the live line; elsewhere only the settled lines are printed.
/// With `--json`, every caption is an event on standard output:
/// `{"event":"caption","text":"…","start":1.2,"end":2.5,"final":false}`.
final class CaptionOutput: Sendable {
    /// How much of the utterance in progress the live line shows (its last characters).
    static let liveDraftLength = 32

    private let pending = ReportQueue()
    private let captioner = Mutex<LiveCaptioner?>(nil)
    private let inProgress = Mutex<String>("")
    private let console: Console
    private let json: Bool

    init(console: Console, json: Bool) {
        self.console = console
        self.json = json
    }

    /// Starts captions on `engine`; says on standard error (and with `--json` as an event) why
    /// they are unavailable when the model is missing. The recording goes on either way.
    func start(engine: CaptureEngine, modelDirectory: String) {
        do {
            let made = try LiveCaptioner(engine: engine, modelDirectory: modelDirectory) { [pending] report in pending.append(report) }
            captioner.withLock { $0 = made }
        } catch {
            say(.unavailable(error))
        }
    }

    /// The utterance in progress, for the end of the live line ("" when none).
    var liveDraft: String {
        let text = inProgress.withLock { $0 }
        guard !text.isEmpty else { return "" }
        let tail = text.count > Self.liveDraftLength ? "…" + text.suffix(Self.liveDraftLength - 1) : text
        return "  draft: " + TerminalText.safe(tail)
    }

    /// Prints what the captioner reported since the last call; `clearLive` erases the live line
    /// first when a line is about to be printed on standard error.
    func flush(clearLive: () -> Void) {
        let reports = pending.takeAll()
        var cleared = false
        for report in reports {
            if case .caption(let caption) = report, json || !caption.isFinal {
                say(report)
                continue
            }
            if !cleared {
                clearLive()
                cleared = true
            }
            say(report)
        }
    }

    /// Stops the captioner (the draft is dropped: the saved memo is transcribed whole) and
    /// prints what it had reported.
    func stop(clearLive: () -> Void) {
        captioner.withLock { $0.take() }?.stop()
        flush(clearLive: clearLive)
        inProgress.withLock { $0 = "" }
    }

    private func say(_ report: CaptionReport) {
        switch report {
        case .caption(let caption):
            inProgress.withLock { $0 = caption.isFinal ? "" : caption.text }
            if json {
                console.printJSON(Self.json(caption))
            } else if caption.isFinal, !caption.text.isEmpty {
                console.writeError("draft: " + TerminalText.safe(caption.text) + "\n")
            }
        case .fellBehind:
            inProgress.withLock { $0 = "" }
            console.printErrorMessage(Self.fellBehindMessage + "; the recording goes on")
            if json { console.printJSON(Self.stoppedJSON(event: "captions_stopped", reason: Self.fellBehindMessage)) }
        case .unavailable(let error):
            inProgress.withLock { $0 = "" }
            console.printErrorMessage("captions are unavailable: \(error.briefDescription); recording without them")
            if json { console.printJSON(Self.stoppedJSON(event: "captions_unavailable", reason: error.briefDescription)) }
        }
    }

    static let fellBehindMessage = "captions stopped: this machine cannot keep up"

    static func json(_ caption: Caption) -> String {
        var json = JSONWriter()
        json.raw("{\"event\":")
        json.string("caption")
        json.raw(",\"text\":")
        json.string(caption.text)
        json.raw(",\"start\":")
        json.number((caption.start * 100).rounded() / 100)
        json.raw(",\"end\":")
        json.number((caption.end * 100).rounded() / 100)
        json.raw(",\"final\":")
        json.bool(caption.isFinal)
        json.raw("}")
        return json.text
    }

    static func stoppedJSON(event: String, reason: String) -> String {
        var json = JSONWriter()
        json.raw("{\"event\":")
        json.string(event)
        json.raw(",\"reason\":")
        json.string(reason)
        json.raw("}")
        return json.text
    }
}

/// The captioner's reports, queued on its thread until `record`'s loop prints them.
private final class ReportQueue: Sendable {
    private let reports = Mutex<[CaptionReport]>([])

    func append(_ report: CaptionReport) {
        reports.withLock { $0.append(report) }
    }

    func takeAll() -> [CaptionReport] {
        reports.withLock { reports in
            defer { reports.removeAll() }
            return reports
        }
    }
}
