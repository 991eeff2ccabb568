import CWebRTCAudio

/// Why WebRTC's echo canceller (`webrtc::EchoCancellation`) refused.
public enum EchoCancellerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A rate whose 10 ms is not a whole number of frames, or under 8000 Hz.
    /// `WEBRTC_VOICE_UNSUPPORTED_RATE`.
    case unsupportedSampleRate(Int)
    /// A side of other than 1 or 2 channels. `WEBRTC_ECHO_BAD_CHANNELS`.
    case unsupportedChannels(Int)
    /// A block that is not 10 ms at the canceller's rate. `WEBRTC_VOICE_BAD_FRAME_LENGTH`.
    case wrongBlockLength(got: Int, expected: Int)
    /// Memory ran out while creating or running it. `WEBRTC_VOICE_NO_MEMORY`.
    case outOfMemory
    /// The library returned an error code of its own (`AudioProcessing::Error`).
    /// `WEBRTC_VOICE_LIBRARY_ERROR`.
    case library(code: Int)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            "WebRTC's echo canceller works in 10 ms blocks, which at \(rate) Hz are not a whole number of frames; "
                + "record at 8000 Hz or more in whole hundreds of Hz (16000, 32000, 44100, 48000)"
        case .unsupportedChannels(let channels):
            "WebRTC's echo canceller takes 1 or 2 channels on each side, not \(channels)"
        case .wrongBlockLength(let got, let expected):
            "WebRTC's echo canceller takes 10 ms blocks (\(expected) frames), not \(got) frames"
        case .outOfMemory:
            "WebRTC's echo canceller ran out of memory"
        case .library(let code):
            "WebRTC's echo canceller failed (error \(code))"
        }
    }

    /// The error a return code of webrtc_echo.h stands for.
    static func of(_ code: Int32, library: Int, sampleRate: Int, channels: Int, got: Int) -> EchoCancellerError {
        switch code {
        case WEBRTC_VOICE_UNSUPPORTED_RATE: .unsupportedSampleRate(sampleRate)
        case WEBRTC_ECHO_BAD_CHANNELS: .unsupportedChannels(channels)
        case WEBRTC_VOICE_BAD_FRAME_LENGTH: .wrongBlockLength(got: got, expected: sampleRate / 100)
        case WEBRTC_VOICE_NO_MEMORY: .outOfMemory
        default: .library(code: library)
        }
    }
}
