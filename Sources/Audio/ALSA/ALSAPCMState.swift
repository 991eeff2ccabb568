import CALSA

/// The state of an ALSA PCM (`snd_pcm_state_t`), plus `closed` for a closed handle.
public enum ALSAPCMState: Sendable, Equatable {
    /// Open, no parameters set (`SND_PCM_STATE_OPEN`).
    case open
    /// Parameters set, not prepared (`SND_PCM_STATE_SETUP`).
    case setup
    /// Ready to start (`SND_PCM_STATE_PREPARED`).
    case prepared
    /// Running (`SND_PCM_STATE_RUNNING`).
    case running
    /// Stopped by an overrun or underrun (`SND_PCM_STATE_XRUN`).
    case xrun
    /// Draining queued frames (`SND_PCM_STATE_DRAINING`).
    case draining
    /// Paused (`SND_PCM_STATE_PAUSED`).
    case paused
    /// Suspended by power management (`SND_PCM_STATE_SUSPENDED`).
    case suspended
    /// The device is gone (`SND_PCM_STATE_DISCONNECTED`).
    case disconnected
    /// The handle was closed by us.
    case closed
    /// A state this code does not know, by its C value.
    case other(UInt32)

    init(_ state: snd_pcm_state_t) {
        switch state {
        case SND_PCM_STATE_OPEN: self = .open
        case SND_PCM_STATE_SETUP: self = .setup
        case SND_PCM_STATE_PREPARED: self = .prepared
        case SND_PCM_STATE_RUNNING: self = .running
        case SND_PCM_STATE_XRUN: self = .xrun
        case SND_PCM_STATE_DRAINING: self = .draining
        case SND_PCM_STATE_PAUSED: self = .paused
        case SND_PCM_STATE_SUSPENDED: self = .suspended
        case SND_PCM_STATE_DISCONNECTED: self = .disconnected
        default: self = .other(state.rawValue)
        }
    }
}
