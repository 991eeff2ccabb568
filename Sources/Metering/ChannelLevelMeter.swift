/// A meter fed every sample of an input that reads one level per channel (dBFS) when asked:
/// what a meter mode's bar shows (`PeakProgrammeMeter`, `VolumeUnitMeter`).
public protocol ChannelLevelMeter {
    mutating func consume(_ samples: UnsafeBufferPointer<Int16>)
    mutating func consume(_ samples: UnsafeBufferPointer<Int32>)
    mutating func consume(_ samples: UnsafeBufferPointer<Float>)
    /// Each channel's reading since the previous call, dBFS.
    mutating func read() -> [Float]
}

extension PeakProgrammeMeter: ChannelLevelMeter {}
extension VolumeUnitMeter: ChannelLevelMeter {}
