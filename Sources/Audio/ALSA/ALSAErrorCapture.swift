import CALSA

/// Installs the shim's capturing error handler once and reads its messages.
enum ALSAErrorCapture {
    private static let installed: Bool = {
        voicememo_alsa_capture_errors()
        return true
    }()

    /// Routes alsa-lib's messages into the shim's per-thread buffer (idempotent).
    static func install() {
        _ = installed
    }

    /// Forgets the last message on this thread; call before each alsa-lib call
    /// whose failure should carry alsa-lib's text, so no stale text is attached.
    static func clear() {
        voicememo_alsa_clear_error()
    }

    /// The last message alsa-lib reported on this thread, or "".
    static func lastMessage() -> String {
        String(cString: voicememo_alsa_last_error())
    }
}
