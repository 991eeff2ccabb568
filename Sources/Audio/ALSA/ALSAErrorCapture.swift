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

    /// The last message alsa-lib reported on this thread, or "".
    static func lastMessage() -> String {
        String(cString: voicememo_alsa_last_error())
    }
}
