import CSampleRate

/// A streaming sample-rate converter over libsamplerate (`src_new` / `src_process`): feed float
/// blocks of any length, get the converted frames appended. Every libsamplerate call is here.
///
/// Not thread-safe; one instance per stream.
public final class Resampler {
    /// libsamplerate's converters that this project uses.
    public enum Quality: Sendable {
        /// `SRC_SINC_FASTEST`: band-limited sinc, 80 dB of rejection, enough for speech at 16 kHz.
        case sincFastest
        /// `SRC_SINC_MEDIUM_QUALITY`.
        case sincMedium

        var converter: Int32 {
            switch self {
            case .sincFastest: Int32(SRC_SINC_FASTEST)
            case .sincMedium: Int32(SRC_SINC_MEDIUM_QUALITY)
            }
        }
    }

    public let inputRate: Int
    public let outputRate: Int
    public let channels: Int
    private let state: OpaquePointer
    private var finished = false

    /// - Throws: `ResamplingError` for a rate ratio or channel count libsamplerate refuses.
    public init(inputRate: Int, outputRate: Int, channels: Int = 1, quality: Quality = .sincFastest) throws(ResamplingError) {
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        let ratio = Double(outputRate) / Double(max(inputRate, 1))
        guard inputRate > 0, outputRate > 0, src_is_valid_ratio(ratio) != 0 else {
            throw ResamplingError(code: 6, message: "cannot convert \(inputRate) Hz to \(outputRate) Hz (ratio out of range)")
        }
        var error: Int32 = 0
        guard channels > 0, let state = src_new(quality.converter, Int32(channels), &error) else {
            throw Self.error(error == 0 ? 1 : error)
        }
        self.state = state
    }

    deinit {
        src_delete(state)
    }

    /// Converts `input` (interleaved frames) and appends what comes out to `output`.
    ///
    /// - Parameter endOfInput: this is the last block: the converter's tail is flushed, and the
    ///   resampler takes no more input afterwards.
    public func process(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool, into output: inout [Float]) throws(ResamplingError) {
        guard !finished else { return }
        let ratio = Double(outputRate) / Double(inputRate)
        let inputFrames = input.count / channels
        var consumed = 0
        // Room for this block's output plus the converter's delay; looped until all is consumed.
        let capacity = Int((Double(inputFrames) * ratio).rounded(.up)) + 256
        var scratch = [Float](repeating: 0, count: capacity * channels)
        while true {
            var generated = 0
            var used = 0
            let result = scratch.withUnsafeMutableBufferPointer { out -> Int32 in
                var data = SRC_DATA()
                data.data_in = input.baseAddress.map { $0 + consumed * channels }
                data.input_frames = inputFrames - consumed
                data.data_out = out.baseAddress
                data.output_frames = capacity
                data.end_of_input = endOfInput ? 1 : 0
                data.src_ratio = ratio
                let result = src_process(state, &data)
                generated = data.output_frames_gen
                used = data.input_frames_used
                return result
            }
            guard result == 0 else { throw Self.error(result) }
            output.append(contentsOf: scratch[0..<(generated * channels)])
            consumed += used
            // Done with this block when all input is used and, at the end, nothing more comes out.
            if consumed >= inputFrames && (!endOfInput || generated == 0) { break }
            if used == 0 && generated == 0 { break }
        }
        if endOfInput { finished = true }
    }

    private static func error(_ code: Int32) -> ResamplingError {
        let text = src_strerror(code).map { String(cString: $0) } ?? "unknown error"
        return ResamplingError(code: code, message: text)
    }
}

extension Resampler {
    /// Float samples (±1.0 full scale) as 16-bit integers, clipped (`src_float_to_short_array`).
    public static func int16Samples(_ samples: [Float]) -> [Int16] {
        var out = [Int16](repeating: 0, count: samples.count)
        guard !samples.isEmpty else { return out }
        samples.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                if let source = input.baseAddress, let target = output.baseAddress {
                    src_float_to_short_array(source, target, Int32(samples.count))
                }
            }
        }
        return out
    }
}
