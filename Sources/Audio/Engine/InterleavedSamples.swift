import Metering
import SoundFiles

/// A processor of interleaved samples in every sample format an engine or a file delivers:
/// the meters in `Metering` each take Int16, Int32 and Float buffers.
public protocol InterleavedSampleConsumer {
    mutating func consume(_ samples: UnsafeBufferPointer<Int16>)
    mutating func consume(_ samples: UnsafeBufferPointer<Int32>)
    mutating func consume(_ samples: UnsafeBufferPointer<Float>)
}

extension LevelMeter: InterleavedSampleConsumer {}
extension ProgrammeMeter: InterleavedSampleConsumer {}
extension InputDiagnostics: InterleavedSampleConsumer {}

/// An optional processor: samples reach it when it is there.
extension Optional: InterleavedSampleConsumer where Wrapped: InterleavedSampleConsumer {
    public mutating func consume(_ samples: UnsafeBufferPointer<Int16>) { self?.consume(samples) }
    public mutating func consume(_ samples: UnsafeBufferPointer<Int32>) { self?.consume(samples) }
    public mutating func consume(_ samples: UnsafeBufferPointer<Float>) { self?.consume(samples) }
}

extension SampleFormat {
    /// Hands `count` interleaved samples at `bytes`, stored in this format (and aligned for
    /// it), to `consumer` as a typed buffer: the one place raw bytes become typed samples.
    public func deliver<Consumer: InterleavedSampleConsumer>(
        _ bytes: UnsafeRawPointer, samples count: Int, to consumer: inout Consumer
    ) {
        switch self {
        case .int16: consumer.consume(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: Int16.self), count: count))
        case .int32: consumer.consume(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: Int32.self), count: count))
        case .float32: consumer.consume(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: Float.self), count: count))
        }
    }
}
