import Glibc
import SoundFiles

/// The typed failure underneath a `RecorderError`, `PlayerError` or `CaptureError`: what the C
/// library or the OS returned, kept so that decisions (disk full? the device would not open?)
/// are taken on codes, never on the words of a message, which change with the locale.
public enum ErrorCause: Sendable, Equatable {
    /// An alsa-lib error: its code, the function, the device and alsa-lib's own text.
    case alsa(ALSAError)
    /// A libsndfile or file-system failure of a sound file (`SoundFileError.Kind`: disk full,
    /// size limit, …).
    case soundFile(SoundFileError)
    /// An OS error number (`errno`) from a system call of our own.
    case osError(Int32)
    /// A libpulse failure: the sound server, its source, libpulse's code and text.
    case pulse(PulseError)
    /// WebRTC's echo canceller refused (a meeting recorded with echo cancelling).
    case echoCanceller(EchoCancellerError)

    /// Whether the cause is a full disk or quota (`ENOSPC`, `EDQUOT`), in any locale.
    public var isDiskFull: Bool {
        switch self {
        case .soundFile(let error): error.kind == .diskFull
        case .osError(let code): code == ENOSPC || code == EDQUOT
        case .alsa, .pulse, .echoCanceller: false
        }
    }

    /// The ALSA error when the cause is that a device could not be opened (`snd_pcm_open`).
    public var deviceOpenFailure: ALSAError? {
        guard case .alsa(let error) = self, error.isOpenFailure else { return nil }
        return error
    }
}
