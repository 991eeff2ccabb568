import CWebRTCAudio

/// WebRTC's noise suppression (`webrtc::NoiseSuppression`): denoises 10 ms frames of mono
/// 16-bit audio in place. `voicememo-bench enhance-compare` measures it beside SpeexDSP's
/// (`SpeechEnhancer`, what `enhance` uses). Not thread-safe: one thread feeds it.
public final class WebRTCNoiseSuppressor {
    /// How hard it suppresses (`webrtc::NoiseSuppression::Level`).
    public enum Level: Int32, Sendable, CaseIterable {
        case low = 0, moderate, high, veryHigh
    }

    public let sampleRate: Int
    /// Samples per 10 ms frame.
    public let frameLength: Int
    private let handle: OpaquePointer

    /// - Throws: `WebRTCVoiceError.unsupportedSampleRate` for a rate other than 8, 16, 32 or 48 kHz.
    public init(sampleRate: Int, level: Level = .high) throws(WebRTCVoiceError) {
        guard WebRTCVoiceDetector.supportedSampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        var made: OpaquePointer?
        let code = webrtc_denoiser_create(Int32(sampleRate), level.rawValue, &made)
        guard code == WEBRTC_VOICE_OK, let made else {
            throw WebRTCVoiceDetector.error(
                code, library: 0, sampleRate: sampleRate, frameLength: sampleRate / 100, got: 0, likelihood: Int(level.rawValue))
        }
        handle = made
        self.sampleRate = sampleRate
        frameLength = sampleRate / 100
    }

    deinit {
        webrtc_denoiser_destroy(handle)
    }

    /// Denoises one 10 ms frame (`frameLength` samples) in place.
    ///
    /// - Throws: `WebRTCVoiceError.wrongFrameLength` for any other length.
    public func process(_ samples: UnsafeMutableBufferPointer<Int16>) throws(WebRTCVoiceError) {
        guard samples.count == frameLength, let base = samples.baseAddress else {
            throw .wrongFrameLength(got: samples.count, expected: frameLength)
        }
        let code = webrtc_denoiser_process(handle, base, Int32(samples.count))
        guard code == WEBRTC_VOICE_OK else {
            throw WebRTCVoiceDetector.error(code, library: 0, sampleRate: sampleRate, frameLength: frameLength, got: samples.count)
        }
    }
}
