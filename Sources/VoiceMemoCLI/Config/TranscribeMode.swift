/// `transcribe = auto|manual|off` in the config file.
public enum TranscribeMode: String, Sendable, Hashable, CaseIterable {
    /// Memos are transcribed in the background once saved (the app), and on request.
    case auto
    /// Only on request (`voicememo transcribe`).
    case manual
    /// Never: `voicememo transcribe` refuses.
    case off
}
