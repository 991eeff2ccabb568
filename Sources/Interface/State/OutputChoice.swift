/// A playback device the output picker offers.
///
/// Not an `InputChoice`: a playback device is ALSA's own name ("default", "hw:0,0"), as
/// `--device` takes it, where an input is an `InputName` with its kind.
public struct OutputChoice: Sendable, Hashable {
    /// ALSA's name for the device.
    public var device: String
    /// A human description, e.g. ALSA's device description.
    public var description: String

    public init(device: String, description: String) {
        self.device = device
        self.description = description
    }
}
