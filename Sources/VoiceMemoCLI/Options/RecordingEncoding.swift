/// The sample encodings `--encoding` accepts, spelled as on the command line.
public enum RecordingEncoding: String, Sendable, CaseIterable {
    case pcm16, pcm24, pcm32
    case float
    case alac16, alac24
    case ulaw, alaw
    case imaADPCM = "ima-adpcm"
}
