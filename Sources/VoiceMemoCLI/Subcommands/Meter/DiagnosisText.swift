import Foundation
import Metering

/// How `voicememo meter` reports the input's diagnosis: a field of each `--json` update,
/// and a line of its own, on the terminal or in text output, each time it changes.
enum DiagnosisText {
    /// `null` when the input looks fine, else `{"kind": …, "message": …}`; a silent
    /// channel adds `"channels"`, numbered from 1; no audio (`no_audio`) adds `"seconds"`,
    /// how long since the last frame arrived.
    static func json(_ diagnosis: InputDiagnosis?, secondsWithoutAudio: Double = 0) -> JSONValue {
        guard let diagnosis else { return .null }
        var members: [(String, JSONValue)]
        switch diagnosis {
        case .noAudio:
            members = [("kind", "no_audio"), ("seconds", .number((secondsWithoutAudio * 10).rounded() / 10))]
        case .silent: members = [("kind", "silent")]
        case .channelSilent(let channels, _):
            members = [("kind", "channel_silent"), ("channels", .array(channels.map { .int(Int64($0 + 1)) }))]
        case .tooHot: members = [("kind", "too_hot")]
        case .tooQuiet: members = [("kind", "too_quiet")]
        }
        members.append(("message", .string(diagnosis.message)))
        return .object(members)
    }

    /// The line printed when the diagnosis changes to `diagnosis` at `time` seconds.
    static func change(to diagnosis: InputDiagnosis?, at time: Double) -> String {
        String(format: "%7.2f s  ", time) + (diagnosis?.message ?? "The input looks fine again.")
    }
}
