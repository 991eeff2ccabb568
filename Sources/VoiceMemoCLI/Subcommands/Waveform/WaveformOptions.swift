/// `voicememo waveform MEMO [--width N] [--json]`.
public struct WaveformOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// `nil`: the terminal's width, else 80.
    public var width: Int?
    public var json: Bool

    public init(memo: String, width: Int? = nil, json: Bool = false) {
        self.memo = memo
        self.width = width
        self.json = json
    }
}
