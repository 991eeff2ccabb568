import SoundFiles
import Streaming
import Vocabulary

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
