/// Who said a word of a meeting memo's transcript: the microphone's side or the desktop's.
public enum Speaker: String, Sendable, Hashable, CaseIterable {
    /// The microphone: the person recording.
    case me
    /// The desktop: the others in the call.
    case them

    /// The name shown and written in transcripts: "Me", "Them".
    public var label: String {
        switch self {
        case .me: "Me"
        case .them: "Them"
        }
    }
}
