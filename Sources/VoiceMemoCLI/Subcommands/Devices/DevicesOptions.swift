/// `voicememo devices`. No options yet.
public struct DevicesOptions: Sendable, Equatable {
    public init() {}
}
