/// The quality levels `--quality` accepts: VBR quality or compression level, by format.
public enum RecordingQuality: String, Sendable, CaseIterable {
    case min, low, medium, high, max
}
