/// `voicememo devices [--all]`.
public struct DevicesOptions: Sendable, Equatable {
    /// `--all`: ALSA's helper plugins (rate converters, mixers, `null`) listed too.
    public var all = false

    public init(all: Bool = false) {
        self.all = all
    }
}
