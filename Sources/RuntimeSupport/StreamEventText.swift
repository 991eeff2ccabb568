import Streaming
import TerminalText

/// The words `play URL` prints on stderr for each stream event (failures are printed once,
/// at the end, by the runner).
public enum StreamEventText {
    public static func line(for event: StreamEvent) -> String? {
        switch event {
        case .buffering(let seconds):
            return "buffering \(seconds) s…"
        case .playing(let stream):
            var line = "playing"
            if let name = stream.name { line += " “" + TerminalText.safe(name) + "”" }
            line += ": \(stream.codec), \(stream.format.sampleRate) Hz, \(stream.format.channels) ch"
            line += stream.isLive ? ", live" : ""
            return line
        case .title(let title):
            return "title: " + TerminalText.safe(title)
        case .reconnecting(let attempt, let limit, let delay, let cause):
            return "\(TerminalText.safe(cause.description)); reconnecting in \(delay) s (\(attempt) of \(limit))"
        case .finished, .failed:
            return nil
        }
    }
}
