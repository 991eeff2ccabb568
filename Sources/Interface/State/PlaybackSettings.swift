/// How the app plays memos: speed, pitch, volume, skip silence and enhance, in the steps its keys
/// take. Kept in `AppState` across memos (the next memo plays the same way), mapped to
/// the player's adjustments at the edge.
///
/// Whole steps are stored (tenths of a speed, semitones, percent) so that ten presses of
/// `]` and ten of `[` come back to exactly 1×.
public struct PlaybackSettings: Sendable, Hashable {
    /// 5…30: 0.5× to 3× in tenths.
    public var speedTenths = 10
    /// −12…+12.
    public var pitchSemitones = 0
    /// 0…150.
    public var volumePercent = 100
    public var skipsSilence = false
    /// Noise suppression while playing (`f`), as `voicememo enhance` makes it.
    public var enhances = false

    public static let speedTenthsRange = 5...30
    public static let pitchRange = -12...12
    public static let volumeRange = 0...150
    /// How far `+` and `-` move the volume, in percent.
    public static let volumeStep = 10

    public init(speedTenths: Int = 10, pitchSemitones: Int = 0, volumePercent: Int = 100, skipsSilence: Bool = false, enhances: Bool = false) {
        self.enhances = enhances
        self.speedTenths = speedTenths
        self.pitchSemitones = pitchSemitones
        self.volumePercent = volumePercent
        self.skipsSilence = skipsSilence
    }

    /// 0.5…3.
    public var speed: Double { Double(speedTenths) / 10 }

    /// Whether the memo plays as recorded.
    public var isIdentity: Bool { self == PlaybackSettings() }

    /// `1.5×`, `1×`.
    public var speedText: String {
        speedTenths % 10 == 0 ? "\(speedTenths / 10)×" : "\(speedTenths / 10).\(speedTenths % 10)×"
    }

    /// `+2 st`, `−3 st`, `0 st`.
    public var pitchText: String {
        pitchSemitones > 0 ? "+\(pitchSemitones) st" : pitchSemitones < 0 ? "−\(-pitchSemitones) st" : "0 st"
    }

    /// `vol 120 %`.
    public var volumeText: String { "vol \(volumePercent) %" }

    /// What differs from playing as recorded, in words: `enhanced, 1.5×, skipping silence`;
    /// `nil` when nothing does. Said when a memo starts playing, since the settings stay from
    /// one memo to the next.
    public var summary: String? {
        var parts: [String] = []
        if enhances { parts.append("enhanced") }
        if speedTenths != 10 { parts.append(speedText) }
        if pitchSemitones != 0 { parts.append(pitchText) }
        if volumePercent != 100 { parts.append(volumeText) }
        if skipsSilence { parts.append("skipping silence") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
