/// The file formats `--format` accepts, spelled as on the command line.
///
/// Which encodings and rates each allows is the sound-file layer's business (PRODUCT.md §4).
public enum RecordingFormat: String, Sendable, CaseIterable {
    case wav, flac, ogg, opus, mp3, caf, aiff
}
