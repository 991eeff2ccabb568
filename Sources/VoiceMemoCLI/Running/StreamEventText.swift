import SoundFiles
import Streaming
import TerminalText

/// The words `play URL` prints on stderr for each stream event (failures are printed once,
/// at the end, by the runner).
enum StreamEventText {
    static func line(for event: StreamEvent) -> String? {
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
    static func slowLine(_ arrival: StreamArrival, server: String) -> String {
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

/// `play URL --json`: one object per event, `{"event": NAME, …}`.
enum StreamEventJSON {
    static func line(for event: StreamEvent) -> String {
        var json = JSONWriter()
        json.raw("{\"event\":")
        switch event {
        case .buffering(let seconds):
            json.string("buffering")
            json.raw(",\"seconds\":")
            json.number(seconds)
        case .playing(let stream):
            json.string("playing")
            json.raw(",\"codec\":")
            json.string(stream.codec)
            json.raw(",\"sample_rate\":")
            json.int(Int64(stream.format.sampleRate))
            json.raw(",\"channels\":")
            json.int(Int64(stream.format.channels))
            json.raw(",\"live\":")
            json.bool(stream.isLive)
            json.raw(",\"name\":")
            if let name = stream.name { json.string(name) } else { json.null() }
            json.raw(",\"duration\":")
            json.optionalNumber(stream.duration)
        case .title(let title):
            json.string("title")
            json.raw(",\"title\":")
            json.string(title)
        case .slow(let arrival, let server):
            json.string("slow")
            json.raw(",\"server\":")
            json.string(server)
            json.raw(",\"bytes\":")
            json.int(arrival.bytes)
            json.raw(",\"seconds\":")
            json.number((arrival.seconds * 10).rounded() / 10)
            json.raw(",\"bytes_per_second\":")
            json.number(arrival.bytesPerSecond.rounded())
            json.raw(",\"needed_bytes_per_second\":")
            json.optionalNumber(arrival.neededBytesPerSecond.map { $0.rounded() })
        case .reconnecting(let attempt, let limit, let delay, let cause):
            json.string("reconnecting")
            json.raw(",\"attempt\":")
            json.int(Int64(attempt))
            json.raw(",\"limit\":")
            json.int(Int64(limit))
            json.raw(",\"delay\":")
            json.number(delay)
            json.raw(",\"cause\":")
            json.string(cause.description)
        case .finished:
            json.string("finished")
        case .failed(let error):
            json.string("failed")
            json.raw(",\"error\":")
            json.string(error.description)
        }
        json.raw("}")
        return json.text
    }
}
