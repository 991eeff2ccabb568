/// One line of the app's frame log (`VOICEMEMO_FRAME_LOG`): a frame the app drew, written by
/// the app and read back by `voicememo-bench`, so both sides agree on the format.
///
/// `SECONDS WORK PROMPT PEAK`: `CLOCK_MONOTONIC` seconds with nine decimals, how many pieces of
/// work were in flight, 1 while the title prompt is up, and the highest of the input's
/// per-channel peaks since the frame before (dBFS with one decimal, −160 without an input).
/// Logs written before the peak was added have three fields; they read with `peakDB` −160.
public struct FrameLogLine: Sendable, Equatable {
    /// `CLOCK_MONOTONIC` seconds when the frame was drawn.
    public var time: Double
    /// Pieces of work in flight.
    public var work: Int
    /// Whether the title prompt is up.
    public var prompt: Bool
    /// The meter's highest channel peak the frame shows, dBFS.
    public var peakDB: Float

    /// The peak a line without one reads as: the meters' floor (`Decibels.floor`).
    public static let noPeak: Float = -160

    public init(time: Double, work: Int, prompt: Bool, peakDB: Float = noPeak) {
        self.time = time
        self.work = work
        self.prompt = prompt
        self.peakDB = peakDB
    }

    /// Reads a line; `nil` for one without a time, work count and prompt flag.
    public init?<Text: StringProtocol>(_ line: Text) {
        let fields = line.split(separator: " ")
        guard fields.count >= 3, let time = Double(fields[0]), let work = Int(fields[1]) else { return nil }
        self.time = time
        self.work = work
        prompt = fields[2] == "1"
        peakDB = fields.count >= 4 ? Float(fields[3]).flatMap { $0.isFinite ? $0 : nil } ?? Self.noPeak : Self.noPeak
    }

    /// The line for a frame drawn at `seconds` + `nanoseconds` (a `timespec`), newline included.
    public static func text(seconds: Int, nanoseconds: Int, work: Int, prompt: Bool, peakDB: Float) -> String {
        let fraction = String(nanoseconds)
        let padding = String(repeating: "0", count: max(9 - fraction.count, 0))
        return "\(seconds).\(padding)\(fraction) \(work) \(prompt ? 1 : 0) \(tenths(peakDB))\n"
    }

    /// `value` rounded to one decimal, without Foundation's formatting (the app writes it
    /// every frame); values under the floor, and NaN, as the floor.
    static func tenths(_ value: Float) -> String {
        let clamped = value.isNaN ? noPeak : min(max(value, noPeak), 1000)
        let scaled = Int((Double(clamped) * 10).rounded())
        let sign = scaled < 0 ? "-" : ""
        return "\(sign)\(abs(scaled) / 10).\(abs(scaled) % 10)"
    }

    /// Reads every line of a log's text that parses.
    public static func lines(of text: String) -> [FrameLogLine] {
        text.split(separator: "\n").compactMap { FrameLogLine($0) }
    }

    /// The first of `frames` (in the order drawn) drawn after `time`, and before `end`, whose
    /// peak is at least `levelDB`; `nil` when none is.
    public static func first(
        in frames: [FrameLogLine], after time: Double, before end: Double = .infinity, atLeast levelDB: Float
    ) -> FrameLogLine? {
        for frame in frames where frame.time > time {
            if frame.time >= end { return nil }
            if frame.peakDB >= levelDB { return frame }
        }
        return nil
    }
}
