import CWebRTCAudio

/// Why WebRTC's audio processing (its voice activity detector, its noise suppression) refused.
public enum WebRTCVoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rate is not one the detector takes (8, 16, 32 or 48 kHz). `WEBRTC_VOICE_UNSUPPORTED_RATE`.
    case unsupportedSampleRate(Int)
    /// A frame that is not 10 ms at the detector's rate. `WEBRTC_VOICE_BAD_FRAME_LENGTH`.
    case wrongFrameLength(got: Int, expected: Int)
    /// A likelihood (or a suppression level) outside 0 … 3. `WEBRTC_VOICE_BAD_LIKELIHOOD`.
    case unsupportedLikelihood(Int)
    /// Memory ran out while creating or running it. `WEBRTC_VOICE_NO_MEMORY`.
    case outOfMemory
    /// The library returned an error code of its own (`AudioProcessing::Error`).
    /// `WEBRTC_VOICE_LIBRARY_ERROR`.
    case library(code: Int)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            "WebRTC's audio processing takes 8000, 16000, 32000 or 48000 Hz, not \(rate) Hz"
        case .wrongFrameLength(let got, let expected):
            "WebRTC's audio processing takes 10 ms frames (\(expected) samples), not \(got) samples"
        case .unsupportedLikelihood(let value):
            "WebRTC's likelihood or level is 0 to 3, not \(value)"
        case .outOfMemory:
            "WebRTC's audio processing ran out of memory"
        case .library(let code):
            "WebRTC's audio processing failed (error \(code))"
        }
    }
}

/// WebRTC's voice activity detector (`webrtc::VoiceDetection`): says whether each 10 ms frame
/// of mono 16-bit audio is voiced.
///
/// Alone it takes steady tones for voice (a run of pure tones: 97 of 120 frames voiced at
/// 48 kHz); `SpeechDetector` combines it with a voicing check that rejects them. Every C call
/// of the library goes through this type. Not thread-safe: one thread feeds it.
public final class WebRTCVoiceDetector {
    /// How readily a frame is called voiced (`webrtc::VoiceDetection::Likelihood`).
    public enum Likelihood: Int32, Sendable, CaseIterable {
        case veryLow = 0, low, moderate, high
    }

    /// The rates the detector takes.
    public static let supportedSampleRates = [8000, 16000, 32000, 48000]

    public let sampleRate: Int
    /// Samples per 10 ms frame.
    public let frameLength: Int
    private let handle: OpaquePointer

    /// - Throws: `WebRTCVoiceError.unsupportedSampleRate` for a rate outside `supportedSampleRates`.
    public init(sampleRate: Int, likelihood: Likelihood = .low) throws(WebRTCVoiceError) {
        guard Self.supportedSampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        var made: OpaquePointer?
        let code = webrtc_voice_create(Int32(sampleRate), &made)
        guard code == WEBRTC_VOICE_OK, let made else {
            throw Self.error(code, library: 0, sampleRate: sampleRate, frameLength: sampleRate / 100, got: 0)
        }
        handle = made
        self.sampleRate = sampleRate
        frameLength = sampleRate / 100
        if likelihood != .low { try setLikelihood(likelihood) }
    }

    deinit {
        webrtc_voice_destroy(handle)
    }

    /// Sets how readily a frame is called voiced.
    public func setLikelihood(_ likelihood: Likelihood) throws(WebRTCVoiceError) {
        let code = webrtc_voice_set_likelihood(handle, likelihood.rawValue)
        try check(code, got: 0, likelihood: Int(likelihood.rawValue))
    }

    /// Judges one 10 ms frame (`frameLength` samples).
    ///
    /// - Throws: `WebRTCVoiceError.wrongFrameLength` for any other length.
    public func isVoiced(_ samples: UnsafeBufferPointer<Int16>) throws(WebRTCVoiceError) -> Bool {
        guard samples.count == frameLength, let base = samples.baseAddress else {
            throw .wrongFrameLength(got: samples.count, expected: frameLength)
        }
        var voiced: Int32 = 0
        let code = webrtc_voice_process(handle, base, Int32(samples.count), &voiced)
        try check(code, got: samples.count)
        return voiced != 0
    }

    private func check(_ code: Int32, got: Int, likelihood: Int = 0) throws(WebRTCVoiceError) {
        guard code != WEBRTC_VOICE_OK else { return }
        throw Self.error(
            code, library: Int(webrtc_voice_last_library_error(handle)), sampleRate: sampleRate,
            frameLength: frameLength, got: got, likelihood: likelihood)
    }

    static func error(_ code: Int32, library: Int, sampleRate: Int, frameLength: Int, got: Int, likelihood: Int = 0) -> WebRTCVoiceError {
        switch code {
        case WEBRTC_VOICE_UNSUPPORTED_RATE: .unsupportedSampleRate(sampleRate)
        case WEBRTC_VOICE_BAD_FRAME_LENGTH: .wrongFrameLength(got: got, expected: frameLength)
        case WEBRTC_VOICE_BAD_LIKELIHOOD: .unsupportedLikelihood(likelihood)
        case WEBRTC_VOICE_NO_MEMORY: .outOfMemory
        default: .library(code: library)
        }
    }
}
