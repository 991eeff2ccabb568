/// `voicememo recover [FILE]`.
public struct RecoverOptions: Sendable, Equatable {
    /// A file `record --output` was writing when it was killed; `nil`: the library's memos.
    public var file: String?

    public init(file: String? = nil) {
        self.file = file
    }
}
