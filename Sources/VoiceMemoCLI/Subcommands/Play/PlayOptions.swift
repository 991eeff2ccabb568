/// `voicememo play MEMO [--device D] [--from T]`.
public struct PlayOptions: Sendable, Equatable {
    /// An id or a unique title prefix.
    public var memo: String
    /// `--device D`: an ALSA playback device name; `nil` uses the default.
    public var device: String?
    /// `--from T`: start this far into the memo.
    public var start: Duration?
    /// `--speed X`: 0.5–3, the pitch kept.
    public var speed: Double?
    /// `--pitch SEMITONES`: −12…+12, the speed kept.
    public var pitch: Double?
    /// `--volume PERCENT`: 0–150.
    public var volume: Double?
    /// `--skip-silence`.
    public var skipsSilence: Bool
    /// `--enhance`.
    public var enhances: Bool
    /// `--json` (streams): events as JSON lines.
    public var json: Bool
    /// `--timeout T` (streams).
    public var timeout: Duration?
    /// `--reconnect N` (streams).
    public var reconnectAttempts: Int?
    /// `--ca-file PATH` (https streams).
    public var certificateAuthorities: String?

    public init(
        memo: String, device: String? = nil, start: Duration? = nil, speed: Double? = nil, pitch: Double? = nil,
        volume: Double? = nil, skipsSilence: Bool = false, enhances: Bool = false, json: Bool = false, timeout: Duration? = nil,
        reconnectAttempts: Int? = nil, certificateAuthorities: String? = nil
    ) {
        self.json = json
        self.timeout = timeout
        self.reconnectAttempts = reconnectAttempts
        self.certificateAuthorities = certificateAuthorities
        self.memo = memo
        self.device = device
        self.start = start
        self.speed = speed
        self.pitch = pitch
        self.volume = volume
        self.skipsSilence = skipsSilence
        self.enhances = enhances
    }
}
