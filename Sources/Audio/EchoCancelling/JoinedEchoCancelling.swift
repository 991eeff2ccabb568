import SoundFiles

/// The echo cancelling of a joined capture (`PulseJoinedCaptureSource`, `record --echo-cancel`):
/// the second input's channels (the desktop, what the loudspeakers play) taken out of the
/// first's (the microphone) by `WebRTCEchoCanceller`, 10 ms at a time; the second input's
/// channels stay as they are.
///
/// The joined source moves whole blocks of both inputs into `staging`, where they are
/// cancelled in place, and reads hand them out in whatever counts the engine asks, so a frame
/// waits for at most one block (10 ms) more than without. Allocates only when it is made; one
/// thread (the capture thread) uses it.
public final class JoinedEchoCancelling {
    /// Frames per 10 ms block.
    let blockFrames: Int
    /// The most frames staged at once.
    let capacity: Int
    /// Joined frames moved in from the inputs, cancelled in place by `cancel(frames:)`.
    let staging: UnsafeMutableRawPointer
    /// Staged frames not yet handed out, from `start`.
    private(set) var staged = 0
    private var start = 0
    private let canceller: WebRTCEchoCanceller
    private let format: StreamFormat
    private let channelsPerInput: Int
    private let nearEnd: UnsafeMutableBufferPointer<Float>
    private let farEnd: UnsafeMutableBufferPointer<Float>

    /// How many blocks one move from the inputs takes at most (100 ms).
    static let blocksStaged = 10

    /// A canceller for joined frames of `format` (both inputs' channels, `channelsPerInput` each).
    ///
    /// - Throws: `EchoCancellerError.unsupportedSampleRate` for a rate the canceller does not
    ///   take (`WebRTCEchoCanceller.supports(sampleRate:)`).
    public init(format: StreamFormat, channelsPerInput: Int) throws(EchoCancellerError) {
        canceller = try WebRTCEchoCanceller(sampleRate: format.sampleRate, channels: channelsPerInput)
        self.format = format
        self.channelsPerInput = channelsPerInput
        blockFrames = canceller.blockFrames
        capacity = blockFrames * Self.blocksStaged
        staging = UnsafeMutableRawPointer.allocate(byteCount: capacity * format.bytesPerFrame, alignment: 16)
        nearEnd = .allocate(capacity: blockFrames * channelsPerInput)
        farEnd = .allocate(capacity: blockFrames * channelsPerInput)
    }

    deinit {
        staging.deallocate()
        nearEnd.deallocate()
        farEnd.deallocate()
    }

    /// Cancels the echo in the first `frames` of `staging` (whole blocks, at most `capacity`),
    /// just moved in from the inputs, and makes them the frames to hand out.
    func cancel(frames: Int) throws(EchoCancellerError) {
        let blocks = frames / blockFrames
        start = 0
        staged = 0
        for block in 0..<blocks {
            let frame = block * blockFrames
            load(from: frame, input: 0, into: nearEnd)
            load(from: frame, input: 1, into: farEnd)
            try canceller.process(farEnd: UnsafeBufferPointer(farEnd), nearEnd: nearEnd)
            storeNearEnd(at: frame)
        }
        staged = blocks * blockFrames
    }

    /// Moves up to `frames` of the cancelled frames into `buffer`; returns how many.
    func handOut(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        let count = min(frames, staged)
        buffer.copyMemory(from: staging + start * format.bytesPerFrame, byteCount: count * format.bytesPerFrame)
        start += count
        staged -= count
        return count
    }

    /// One block's samples of `input` (0 the first, 1 the second) from `frame` on, as floats.
    private func load(from frame: Int, input: Int, into samples: UnsafeMutableBufferPointer<Float>) {
        let bytes = format.sampleFormat.bytesPerSample
        let stride = format.bytesPerFrame
        let base = staging + frame * stride + input * channelsPerInput * bytes
        for index in 0..<blockFrames {
            for channel in 0..<channelsPerInput {
                let at = base + index * stride + channel * bytes
                samples[index * channelsPerInput + channel] =
                    switch format.sampleFormat {
                    case .int16: Float(at.loadUnaligned(as: Int16.self)) / 32768
                    case .int32: Float(Double(at.loadUnaligned(as: Int32.self)) / 2_147_483_648)
                    // Not finite (a server's float stream may hold one): silence, so that the
                    // canceller's adaptive filter never takes it in and is spoilt for good.
                    case .float32: Self.finite(at.loadUnaligned(as: Float.self))
                    }
            }
        }
    }

    private static func finite(_ sample: Float) -> Float {
        sample.isFinite ? sample : 0
    }

    /// Writes the cancelled near end back over the first input's channels from `frame` on.
    private func storeNearEnd(at frame: Int) {
        let bytes = format.sampleFormat.bytesPerSample
        let stride = format.bytesPerFrame
        let base = staging + frame * stride
        for index in 0..<blockFrames {
            for channel in 0..<channelsPerInput {
                // A sample the canceller made not finite is silence, never a trap in the conversion.
                let sample = nearEnd[index * channelsPerInput + channel]
                let value = Self.finite(sample)
                let at = base + index * stride + channel * bytes
                switch format.sampleFormat {
                case .int16:
                    at.storeBytes(of: Int16((Double(value) * 32768).rounded().clamped(-32768, 32767)), as: Int16.self)
                case .int32:
                    at.storeBytes(
                        of: Int32((Double(value) * 2_147_483_648).rounded().clamped(-2_147_483_648, 2_147_483_647)), as: Int32.self)
                case .float32:
                    at.storeBytes(of: value, as: Float.self)
                }
            }
        }
    }
}

extension Double {
    fileprivate func clamped(_ lowest: Double, _ highest: Double) -> Double {
        Swift.min(Swift.max(self, lowest), highest)
    }
}
