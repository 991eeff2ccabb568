import CWebRTCAudio

/// WebRTC's echo canceller (`webrtc::EchoCancellation`, webrtc-audio-processing 0.3): takes
/// what the loudspeakers played (the far end) out of what the microphone heard (the near end),
/// a 10 ms block at a time, both sides read at the same instant.
///
/// The delay between the far end and its echo (the loudspeakers' latency and the room) is
/// estimated by the canceller (its delay-agnostic mode, with the extended filter), so it need
/// not be known; drift compensation is off, as both sides come from one clock. What it cannot
/// cancel it suppresses at `Suppression.high`. At a rate other than 8, 16, 32 or 48 kHz WebRTC
/// resamples each block to its own rate and back. Every C call of the canceller goes through
/// this type. Not thread-safe: one thread feeds it.
public final class WebRTCEchoCanceller {
    /// How hard it suppresses the echo left after cancelling
    /// (`webrtc::EchoCancellation::SuppressionLevel`).
    public enum Suppression: Int32, Sendable, CaseIterable {
        case low = 0, moderate, high
    }

    public let sampleRate: Int
    /// The channels of each side.
    public let channels: Int
    /// Frames per 10 ms block.
    public let blockFrames: Int
    private let handle: OpaquePointer

    /// Whether the canceller works at `sampleRate`: 8000 Hz or more, in whole hundreds of Hz.
    public static func supports(sampleRate: Int) -> Bool {
        sampleRate >= 8000 && sampleRate % 100 == 0
    }

    /// - Throws: `EchoCancellerError.unsupportedSampleRate` for a rate `supports(sampleRate:)`
    ///   refuses, `.unsupportedChannels` for other than 1 or 2 channels.
    public init(sampleRate: Int, channels: Int, suppression: Suppression = .high) throws(EchoCancellerError) {
        guard Self.supports(sampleRate: sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        var made: OpaquePointer?
        let code = webrtc_echo_create(Int32(sampleRate), Int32(channels), suppression.rawValue, &made)
        guard code == WEBRTC_VOICE_OK, let made else {
            throw .of(code, library: 0, sampleRate: sampleRate, channels: channels, got: 0)
        }
        handle = made
        self.sampleRate = sampleRate
        self.channels = channels
        blockFrames = sampleRate / 100
    }

    deinit {
        webrtc_echo_destroy(handle)
    }

    /// Cancels `farEnd`'s echo out of `nearEnd`, in place: one block of `blockFrames` frames of
    /// `channels` interleaved floats (-1 … 1) on each side.
    ///
    /// - Throws: `EchoCancellerError.wrongBlockLength` for any other length.
    public func process(farEnd: UnsafeBufferPointer<Float>, nearEnd: UnsafeMutableBufferPointer<Float>) throws(EchoCancellerError) {
        let expected = blockFrames * channels
        guard farEnd.count == expected, nearEnd.count == expected, let far = farEnd.baseAddress, let near = nearEnd.baseAddress else {
            throw .wrongBlockLength(got: min(farEnd.count, nearEnd.count) / channels, expected: blockFrames)
        }
        let code = webrtc_echo_process(handle, far, near, Int32(blockFrames))
        guard code == WEBRTC_VOICE_OK else {
            throw .of(
                code, library: Int(webrtc_echo_last_library_error(handle)), sampleRate: sampleRate, channels: channels,
                got: blockFrames)
        }
    }
}
