import Audio
import Vocabulary
import Interface

/// The input's effects (`i` and the input picker, the capture keys `<` `>` `M`, the noise
/// alert `n` and its bell; `Interface/Update/NoiseAlertUpdate.swift`, the picker's keys): the
/// input opened and closed on the effect runner, bounded (`AppEffects.openBounded`), and the
/// answer installing it as `AppLoop.session`. A switch ends the recording shown
/// (`RecordingEffects.endShownRecordings`), whose stale-result guard then drops a start
/// that answers late.
struct InputEffects {
    func perform(_ effect: Effect, on loop: AppLoop, tracked: Bool) {
        switch effect {
        case .listInputs:
            let current = loop.session?.source ?? loop.initialSource
            // The sound server may take its whole second to answer: beside the loop.
            loop.onRunner(tracked: tracked) { _ in
                let choices = InputChoices.available(current: current)
                return { loop.dispatch(.inputsListed(choices)) }
            }
        case .selectInput(let name):
            select(name, on: loop, tracked: tracked)
        case .changeCaptureGain(let change):
            captureGain(change, on: loop, tracked: tracked)
        case .readCaptureGain:
            captureGain(nil, on: loop, tracked: tracked)
        case .setNoiseAlert(let parameters):
            // Attaching a tap takes the engine's lock only: quick enough for the UI queue.
            loop.session?.setNoiseAlert(parameters)
            if let session = loop.session, parameters != nil {
                let input = Double(session.engine.capturedFrames) / Double(session.engine.format.sampleRate)
                loop.eventLog?.note(String(format: "noise_alert_on input=%.3f", input))
            }
        case .ringBell:
            loop.ringBell()
        default:
            assertionFailure("not an input effect: \(effect)")
        }
    }

    /// Changes (or only reads, `change` nil) the open input's capture volume on the runner:
    /// opening a mixer talks to the card or the sound server, which may take its time.
    private func captureGain(_ change: CaptureGainChange?, on loop: AppLoop, tracked: Bool) {
        guard let session = loop.session, session.hasCaptureVolume else {
            if tracked { loop.onRunner(tracked: true) { _ in {} } }
            return
        }
        let source = session.source
        loop.onRunner(tracked: tracked) { _ in
            let action = CaptureGainEdge.perform(change, source: source)
            return { loop.dispatch(action) }
        }
    }

    /// Closes the input (saving its recording) and opens `name`; with `thenRecording`, starts
    /// recording it into a memo of that title in the same job (`R`: the stream as the input).
    /// The initial input is opened as given (with its ALSA configuration file, in tests); any
    /// other is checked as `--source` would check it.
    func select(_ name: InputName, on loop: AppLoop, tracked: Bool, thenRecording title: String? = nil) {
        let old = loop.session
        let recordings = loop.recordings
        recordings.endShownRecordings()
        loop.session = nil
        loop.scheduleTimer()
        let initial = loop.initialSource
        let settings = loop.settings
        let whenLost = loop.whenServerSourceLost
        let cancelsEcho = loop.cancelsMeetingEcho
        loop.onRunner(tracked: tracked) { effects in
            let saved = recordings.save(effects) { _, _ in }
            old?.close()
            let source: InputSource
            if name == initial.name {
                source = initial
            } else {
                do {
                    source = try InputSource(validating: name).whenServerSourceLost(whenLost).cancellingEcho(cancelsEcho)
                } catch {
                    let answer = saved + [.failed(.notAnInput(name, reason: "\(error)"))]
                    return { answer.forEach(loop.dispatch) }
                }
            }
            do throws(RecorderError) {
                let opened = try effects.openBounded { () throws(RecorderError) in
                    try InputSession(source: source, settings: settings)
                }
                let recording = title.map { recordings.begin($0, on: opened, effects, loop: loop) }
                return {
                    // A recording begun is saved by the quit, which comes behind this job.
                    guard !loop.isFinishing || recording?.started != nil else {
                        opened.close()
                        return
                    }
                    loop.session = opened
                    loop.scheduleTimer()
                    saved.forEach(loop.dispatch)
                    loop.dispatch(.inputOpened(opened.description))
                    guard let title, let recording else { return }
                    recording.notes.forEach(loop.dispatch)
                    if let started = recording.started {
                        opened.attach(started)
                        loop.dispatch(.recordingStarted(title: title, memoID: started.memo.memo.id))
                    }
                }
            } catch {
                let failure =
                    effects.openGaveUp ? InputChoices.noAnswer(source, after: AppEffects.inputOpenLimit)
                    : InputChoices.openFailure(source, error)
                // A choice that does not open leaves the input that was open before it, when that
                // one opens again (it may be what went away).
                if let previous = old?.source, previous.name != source.name, title == nil, !effects.openGaveUp,
                    let reopened = try? effects.openBounded({ () throws(RecorderError) in
                        try InputSession(source: previous, settings: settings)
                    })
                {
                    return {
                        guard !loop.isFinishing else {
                            reopened.close()
                            return
                        }
                        loop.session = reopened
                        loop.scheduleTimer()
                        saved.forEach(loop.dispatch)
                        loop.dispatch(.inputOpened(reopened.description))
                        loop.dispatch(.failed(.inputNotSwitched(failure, kept: previous.name)))
                    }
                }
                let answer = saved + [.inputFailed(failure)]
                return { answer.forEach(loop.dispatch) }
            }
        }
    }
}
