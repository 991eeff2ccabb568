/// `voicememo pause`: no options.
public struct PauseOptions: Sendable, Equatable {
    public init() {}
}
