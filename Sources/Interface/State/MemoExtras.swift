/// What the details screen (`I`) shows of a memo beyond its table row, read from the index
/// when `I` opens (`Effect.loadMemoDetails`): its markers and its transcript's state.
public struct MemoExtras: Sendable, Hashable {
    /// One marker: seconds from the memo's start, and its label (empty: none).
    public struct MarkerRow: Sendable, Hashable {
        public var time: Double
        public var label: String

        public init(time: Double, label: String = "") {
            self.time = time
            self.label = label
        }
    }

    public var memoID: Int64
    /// Earliest first (none when they could not be read: `markersProblem` says why).
    public var markers: [MarkerRow]
    /// Why the markers could not be read, when they could not.
    public var markersProblem: String?
    /// The words, `.missing` (not transcribed, or transcribed from an earlier version of the
    /// file), or why transcription failed.
    public var transcript: TranscriptContent

    public init(memoID: Int64, markers: [MarkerRow], markersProblem: String? = nil, transcript: TranscriptContent) {
        self.memoID = memoID
        self.markers = markers
        self.markersProblem = markersProblem
        self.transcript = transcript
    }
}
