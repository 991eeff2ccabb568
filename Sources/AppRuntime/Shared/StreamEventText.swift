import Streaming
import Vocabulary

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
        case .slow(let arrival, let server):
            return slowLine(arrival, server: server)
        case .reconnecting(let attempt, let limit, let delay, let cause):
            return "\(TerminalText.safe(cause.description)); reconnecting in \(delay) s (\(attempt) of \(limit))"
        case .finished, .failed:
            return nil
        }
    }

    /// "slow: 400 bytes from 127.0.0.1:8000 in 4 s (100 B/s); 128 kbit/s needs 16000 B/s: too slow
    /// to play, still buffering" (the need only once the bit rate is known).
    public static func slowLine(_ arrival: StreamArrival, server: String) -> String {
        let seconds = Int(arrival.seconds.rounded())
        var line = "slow: \(arrival.bytes) bytes from \(TerminalText.safe(server)) in \(seconds) s"
        line += " (\(Int(arrival.bytesPerSecond.rounded())) B/s)"
        if let bitRate = arrival.bitRate, let needed = arrival.neededBytesPerSecond {
            line += "; \(Int((Double(bitRate) / 1000).rounded())) kbit/s needs \(Int(needed.rounded())) B/s: too slow to play"
            return line + ", still buffering"
        }
        return line + ", not yet enough to play: still buffering"
    }
}
