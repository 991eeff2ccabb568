/// `voicememo stop`: no options.
public struct StopOptions: Sendable, Equatable {
    public init() {}
}
