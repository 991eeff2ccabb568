import Glibc
import SoundFiles

/// A sine in every channel, whose peak sits at a chosen dBFS: the `tone:FREQ@DBFS` source.
///
/// Generated in double precision and converted to the requested sample format, so
/// the meter reads the level it was asked for (a 1 kHz tone at 48 kHz hits its
/// crest exactly). Paced to real time unless `paced` is false (tests).
public final class ToneSource: CaptureSource {
    public let format: StreamFormat
    public let name: String
    public let frequency: Double
    public let peakDBFS: Double
    private let amplitude: Double
    private let phaseStep: Double
    private var phase = 0.0
    private var framesProduced = 0
    private var pacer: Pacer?
    private let periodFrames: Int

    /// - Parameters:
    ///   - frequency: Hz, above 0 and below half the sample rate.
    ///   - peakDBFS: the sine's peak in dBFS, at most 0.
    ///   - format: the stream to produce.
    ///   - paced: deliver in real time (like a device) or as fast as asked.
    public init(frequency: Double, peakDBFS: Double, format: StreamFormat, paced: Bool = true) throws(CaptureError) {
        guard frequency > 0, frequency < Double(format.sampleRate) / 2 else {
            throw CaptureError(.io, "a \(frequency) Hz tone cannot be made at \(format.sampleRate) Hz: use 1 to \(format.sampleRate / 2 - 1) Hz")
        }
        guard peakDBFS <= 0, peakDBFS.isFinite else {
            throw CaptureError(.io, "a tone at \(peakDBFS) dBFS is not possible: the peak must be at most 0 dBFS")
        }
        self.format = format
        self.frequency = frequency
        self.peakDBFS = peakDBFS
        self.amplitude = pow(10, peakDBFS / 20)
        self.phaseStep = 2 * Double.pi * frequency / Double(format.sampleRate)
        self.name = "tone \(Self.trimmed(frequency)) Hz at \(Self.trimmed(peakDBFS)) dBFS"
        self.pacer = paced ? Pacer(sampleRate: format.sampleRate) : nil
        self.periodFrames = max(1, format.sampleRate / 50)
    }

    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead {
        let count = min(frames, periodFrames)
        pacer?.wait(untilFrame: framesProduced + count)
        let channels = format.channels
        for frame in 0..<count {
            let value = amplitude * sin(phase)
            phase += phaseStep
            if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
            let base = frame * channels
            switch format.sampleFormat {
            case .float32:
                let out = buffer.assumingMemoryBound(to: Float.self)
                for channel in 0..<channels { out[base + channel] = Float(value) }
            case .int16:
                let out = buffer.assumingMemoryBound(to: Int16.self)
                let sample = Int16(clamping: Int((value * 32767).rounded()))
                for channel in 0..<channels { out[base + channel] = sample }
            case .int32:
                let out = buffer.assumingMemoryBound(to: Int32.self)
                let sample = Int32(clamping: Int64((value * 2_147_483_647).rounded()))
                for channel in 0..<channels { out[base + channel] = sample }
            }
        }
        framesProduced += count
        return CaptureRead(frames: count)
    }

    public func close() {}

    private static func trimmed(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
