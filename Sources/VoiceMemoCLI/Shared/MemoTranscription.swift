import Platform
import Foundation
import MemoLibrary
import Vocabulary
import AppRuntime
import Transcription

/// Transcribing a memo and storing its transcript: `transcribe`, and `record` with `transcribe = auto`.
enum MemoTranscription {
    /// `record` with `transcribe = auto`: transcribes the memo just saved, saying so on stderr
    /// (a progress line on a terminal). The recording is kept whatever happens here, so a
    /// failure is a message, not an exit status; a stop signal ends it with nothing stored.
    static func transcribeAfterRecording(
        _ memo: Memo, in library: MemoLibrary, model: String, titlesFromWords: Bool, context: CommandContext
    ) {
        let console = context.console
        if let signal = StopSignals.pending {
            console.printErrorMessage("not transcribing memo \(memo.id): \(StopSignals.name(signal)) stopped the command")
            return
        }
        if !console.isErrorTerminal { console.printErrorMessage("transcribing memo \(memo.id) (--no-transcribe skips this)") }
        let eventLog = EventLog(environment: context.environment)
        defer { eventLog?.close() }
        do {
            let transcript = try transcribeAndStore(
                memo, in: library, modelDirectory: model, titlesFromWords: titlesFromWords, console: console,
                eventLog: eventLog, shouldStop: { StopSignals.pending != nil })
            let count = transcript.words.count
            console.printErrorMessage(
                count == 0 ? "memo \(memo.id): no words were recognised (English speech only)"
                    : "memo \(memo.id): \(count) word\(count == 1 ? "" : "s") transcribed (voicememo transcribe \(memo.id) prints them)")
        } catch let failure as CommandFailure {
            console.printErrorMessage("memo \(memo.id) is saved but not transcribed: \(failure.message)")
        } catch {
            console.printErrorMessage("memo \(memo.id) is saved but not transcribed: \(error)")
        }
    }

    /// Transcribes `memo` and stores its transcript; with `titlesFromWords` (`auto_title`, on
    /// unless the config says off), a memo still at its default title is then titled from its
    /// first words, said on standard error.
    static func transcribeAndStore(
        _ memo: Memo, in library: MemoLibrary, modelDirectory: String, titlesFromWords: Bool, console: Console,
        eventLog: EventLog?, shouldStop: @escaping () -> Bool = { false }
    ) throws -> Transcript {
        let model: SpeechModel
        do {
            model = try SpeechModel(directory: modelDirectory)
        } catch {
            throw CommandFailure(error.description)
        }
        let transcriber = Transcriber(model: model)
        let transcript: Transcript
        let line = console.isErrorTerminal ? LevelBars(console: console, channels: 0) : nil
        var shownPercent = -1
        defer { if shownPercent >= 0 { line?.clear() } }
        do {
            transcript = try transcriber.transcribe(
                memo: memo,
                progress: { fraction in
                    eventLog?.note(String(format: "transcribed %.4f", fraction))
                    let percent = Int(fraction * 100)
                    if let line, percent != shownPercent {
                        shownPercent = percent
                        line.redraw(progressText(memo, fraction: fraction))
                    }
                },
                shouldStop: shouldStop)
        } catch {
            switch error {
            case .sound, .noAudio, .resampling:
                // The file is at fault: remember it, so a background job does not try it on every start.
                try? library.storeTranscriptionFailure(
                    forMemo: memo.id, problem: error.description, model: model.name, frames: memo.frames, at: Date())
            case .modelMissing, .recognizer:
                break
            case .cancelled:
                throw CommandFailure("interrupted; voicememo transcribe \(memo.id) does it later")
            }
            throw CommandFailure(error.description)
        }
        do {
            try library.storeTranscript(transcript, forMemo: memo.id, at: Date())
        } catch .readOnly {
            console.printErrorMessage("note: the library is read-only, so this transcript is not kept for search")
        } catch {
            throw LibraryAccess.failure(error)
        }
        if titlesFromWords { title(memo, from: transcript, in: library, console: console) }
        return transcript
    }

    /// Titles `memo` from its first words if it still has its default title; says so, or why
    /// it keeps its title when the rename failed (a read-only library says nothing more).
    private static func title(_ memo: Memo, from transcript: Transcript, in library: MemoLibrary, console: Console) {
        do {
            guard let change = try library.titleFromWords(of: transcript, forMemo: memo.id) else { return }
            console.printErrorMessage(
                "memo \(memo.id) is titled “\(TerminalText.safe(change.title))” from its words "
                    + "(it was “\(TerminalText.safe(change.previousTitle))”; voicememo rename \(memo.id) TITLE changes it)")
        } catch .readOnly {
            return
        } catch {
            console.printErrorMessage("memo \(memo.id) keeps its title: \(error)")
        }
    }

    /// The live line on a terminal's stderr: "transcribing memo 12 “Standup”: 40 %".
    static func progressText(_ memo: Memo, fraction: Double) -> String {
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        return "transcribing memo \(memo.id) “\(TerminalText.safe(String(memo.title.prefix(40))))”: \(percent) %"
    }

    /// `00:01:02.3`.
    static func timestamp(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded(.down))
        let hours = tenths / 36_000
        let minutes = tenths / 600 % 60
        let wholeSeconds = tenths / 10 % 60
        return String(format: "%02d:%02d:%02d.%d", hours, minutes, wholeSeconds, tenths % 10)
    }
}
