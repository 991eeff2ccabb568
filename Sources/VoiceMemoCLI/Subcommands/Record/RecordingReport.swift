import Audio
import Foundation
import SoundFiles

/// What `record --json` prints about the file it wrote (`--output` mode): the
/// shape of a memo in `list --json`, less what only the library knows.
struct RecordingReport {
    var request: RecordRequest
    var statistics: RecorderStatistics
    var peak: Float

    var json: String {
        let settings = request.settings
        let size = (try? FileManager.default.attributesOfItem(atPath: request.output)[.size] as? Int) ?? 0
        let frames = statistics.framesWritten
        let value: JSONValue = .object([
            ("title", request.metadata.title.map(JSONValue.string) ?? .null),
            ("duration", .number(Double(frames) / Double(settings.sampleRate))),
            ("frames", .int(frames)),
            ("sample_rate", .int(Int64(settings.sampleRate))),
            ("channels", .int(Int64(settings.channels))),
            ("format", .string(settings.format.rawValue)),
            ("encoding", .string(settings.encoding.rawValue)),
            ("path", .string(request.output)),
            ("size", .int(Int64(size))),
            ("peak_db", .number(Double(peak))),
            ("overruns", .int(Int64(statistics.overruns))),
            ("lost_frames", .int(Int64(statistics.lostFrames))),
            ("samples_not_numbers", .int(Int64(statistics.replacedSamples.notNumbers))),
            ("samples_clamped", .int(Int64(statistics.replacedSamples.clamped))),
        ])
        return value.serialized
    }
}
