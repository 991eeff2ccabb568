import CSpeexDSP

/// One channel's SpeexDSP preprocessor state (`SpeexPreprocessState`): the C calls, nothing
/// else. `SpeechEnhancer` owns one per channel. Not thread-safe.
final class SpeexPreprocessor {
    let frameSize: Int
    private let state: OpaquePointer

    /// A state for frames of `frameSize` samples at `sampleRate`, or `nil` when SpeexDSP
    /// could not make one (it allocates and returns NULL on failure).
    init?(frameSize: Int, sampleRate: Int) {
        guard frameSize > 0, let state = speex_preprocess_state_init(Int32(frameSize), Int32(sampleRate)) else { return nil }
        self.frameSize = frameSize
        self.state = state
    }

    deinit {
        speex_preprocess_state_destroy(state)
    }

    /// The denoiser on with at most `noiseSuppressionDB` (negative) taken off the noise, the
    /// AGC on or off, dereverberation off; whether SpeexDSP took them all. (Voice detection is
    /// off by default and left alone: setting it, even off, prints a warning on standard error.)
    func configure(noiseSuppressionDB: Int, automaticGain: Bool) -> Bool {
        set(SPEEX_PREPROCESS_SET_DENOISE, 1)
            && set(SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, Int32(noiseSuppressionDB))
            && set(SPEEX_PREPROCESS_SET_AGC, automaticGain ? 1 : 0)
            && set(SPEEX_PREPROCESS_SET_DEREVERB, 0)
    }

    /// Sets an integer request (`SPEEX_PREPROCESS_SET_*`); whether SpeexDSP took it.
    private func set(_ request: Int32, _ value: Int32) -> Bool {
        var value = value
        return speex_preprocess_ctl(state, request, &value) == 0
    }

    /// Reads an integer request (`SPEEX_PREPROCESS_GET_*`).
    func get(_ request: Int32) -> Int32? {
        var value: Int32 = 0
        return speex_preprocess_ctl(state, request, &value) == 0 ? value : nil
    }

    /// Processes one frame of `frameSize` samples in place. SpeexDSP's output lags its input by
    /// one frame (its analysis window spans this frame and the one before).
    func run(_ frame: UnsafeMutableBufferPointer<Int16>) {
        precondition(frame.count == frameSize, "a SpeexDSP frame is exactly frameSize samples")
        guard let base = frame.baseAddress else { return }
        _ = speex_preprocess_run(state, base)
    }
}
