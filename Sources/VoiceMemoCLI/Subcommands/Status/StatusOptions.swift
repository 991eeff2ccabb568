/// `voicememo status [--json]`.
public struct StatusOptions: Sendable, Equatable {
    /// `--json`: one object.
    public var json: Bool

    public init(json: Bool = false) {
        self.json = json
    }
}
