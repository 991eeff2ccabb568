/// `voicememo recover`.
public struct RecoverOptions: Sendable, Equatable {
    public init() {}
}
