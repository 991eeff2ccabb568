import Audio
import Dispatch
import Foundation
import Interface
import Platform
import Synchronization
import Transcription

/// The app's live captions: a `LiveCaptioner` on the open input while the state wants one
/// (`AppState.wantsCaptions`), its reports queued on the captioner's thread and handed to the
/// loop on each tick as `CaptionUpdate`s.
///
/// The UI queue only decides (`follow`): making a captioner (it checks the model's files) and
/// stopping one (it joins a thread that may be loading the model or decoding a block) run on a
/// serial queue of their own, in the order asked, so the UI queue never touches a file or waits
/// for the recogniser. Reports of a captioner that was replaced are dropped (`generation`).
/// `engine` and `generation` are the UI queue's; `captioner` is `work`'s.
final class LiveCaptionRunner: @unchecked Sendable {
    private let modelDirectory: String
    private let work = DispatchQueue(label: "voicememo.captions")
    private var captioner: LiveCaptioner?
    /// The engine a captioner was asked for: a new input means a new captioner.
    private var engine: CaptureEngine?
    private var generation = 0
    private let reports = CaptionReports()
    /// `VOICEMEMO_EVENT_LOG`: `captions_start`, and `caption end=… final=…` per report.
    private let eventLog: EventLog?

    init(modelDirectory: String, eventLog: EventLog?) {
        self.modelDirectory = modelDirectory
        self.eventLog = eventLog
    }

    /// Starts or stops the captioner so that one runs on `engine` exactly when `wanted`.
    func follow(wanted: Bool, engine: CaptureEngine?) {
        let wanted = wanted && engine != nil
        if let running = self.engine, !wanted || running !== engine {
            stop()
        }
        guard wanted, self.engine == nil, let engine else { return }
        generation += 1
        let generation = generation
        self.engine = engine
        eventLog?.note("captions_start")
        let (modelDirectory, reports) = (modelDirectory, reports)
        work.async { [self] in
            do throws(TranscriptionError) {
                captioner = try LiveCaptioner(engine: engine, modelDirectory: modelDirectory) { report in
                    reports.append(report, generation: generation)
                }
            } catch {
                reports.append(.unavailable(error), generation: generation)
            }
        }
    }

    /// What the current captioner reported since the last call, in the app's terms.
    func takeUpdates() -> [CaptionUpdate] {
        reports.takeAll().filter { $0.generation == generation }.map { entry in
            if case .caption(let caption) = entry.report {
                eventLog?.note(String(format: "caption end=%.3f final=%d words=%d", caption.end, caption.isFinal ? 1 : 0, caption.text.split(separator: " ").count))
            }
            return Self.update(entry.report)
        }
    }

    /// Stops the captioner (off the UI queue); its reports from now on are dropped.
    func stop() {
        generation += 1
        guard engine != nil else { return }
        engine = nil
        work.async { [self] in
            captioner?.stop()
            captioner = nil
        }
    }

    /// Stops the captioner and waits for its thread: the app is ending.
    func end() {
        stop()
        work.sync {}
    }

    static func update(_ report: CaptionReport) -> CaptionUpdate {
        switch report {
        case .caption(let caption): .words(caption.text, isFinal: caption.isFinal)
        case .fellBehind: .stopped(reason: "this machine cannot keep up")
        case .unavailable(let error): .stopped(reason: "unavailable (\(error.briefDescription))")
        }
    }
}

/// The captioner's reports, each with the generation of the captioner that made it; appended on
/// its thread, taken on the UI queue.
private final class CaptionReports: Sendable {
    private let reports = Mutex<[(generation: Int, report: CaptionReport)]>([])

    func append(_ report: CaptionReport, generation: Int) {
        reports.withLock { $0.append((generation, report)) }
    }

    func takeAll() -> [(generation: Int, report: CaptionReport)] {
        reports.withLock { reports in
            defer { reports.removeAll() }
            return reports
        }
    }
}
