/// `voicememo toggle`: no options.
public struct ToggleOptions: Sendable, Equatable {
    public init() {}
}
