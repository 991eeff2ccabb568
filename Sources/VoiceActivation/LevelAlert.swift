import Audio
import Glibc

/// The noise alert's decisions (`voicememo meter --alert-above DB --for T`), as a pure function
/// of block levels, like `VoiceActivation`.
///
/// The level is the room's 200 ms RMS (`RoomLevel.envelope`), the measure that ends a voice
/// take. It "stays above" the threshold while it is at or above it, with dips shorter than
/// `bridge` (0.3 s, the gaps between words) not counted as leaving. When it has stayed above
/// for `duration`, the alert fires, once; it re-arms when the level has stayed under
/// threshold − `hysteresis` for longer than `bridge`. So a 0.3 s knock never lasts a 1 s
/// `duration`, 2 s of speech does and fires once, and a room that hovers at the threshold does
/// not fire again and again.
public struct LevelAlert: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The level that alerts, in dBFS.
        public var thresholdDB: Double
        /// How long the level must stay above, in seconds (0: as soon as it is above).
        public var duration: Double
        /// How far under the threshold the level must fall to re-arm, in dB.
        public var hysteresis: Double

        public static let defaultHysteresis = 6.0
        /// Dips shorter than this do not end a crossing, nor does a drop re-arm before it.
        public static let bridge = 0.3

        public init(thresholdDB: Double, duration: Double = 0, hysteresis: Double = Self.defaultHysteresis) {
            self.thresholdDB = thresholdDB
            self.duration = duration
            self.hysteresis = hysteresis
        }
    }

    /// An alert: the level had stayed above the threshold for `duration`.
    public struct Alert: Sendable, Equatable {
        /// The frame the level went above the threshold.
        public var startFrame: Int
        /// One past the block at which it had stayed above for `duration`.
        public var frame: Int
        /// The level then (200 ms RMS), in dBFS.
        public var levelDB: Double
    }

    public let settings: Settings
    public let sampleRate: Int
    private var room: RoomLevel
    private let durationFrames: Int
    private let bridgeFrames: Int
    /// Where the current run above began, and one past its last block above.
    private var aboveSince: Int?
    private var lastAbove = 0
    /// Whether an alert may fire; after one, false until re-armed.
    public private(set) var isArmed = true
    /// One past the last block at or above threshold − hysteresis, while disarmed.
    private var lastNearThreshold = 0

    public init(settings: Settings, sampleRate: Int) {
        self.settings = settings
        self.sampleRate = sampleRate
        room = RoomLevel(sampleRate: sampleRate)
        durationFrames = Int((settings.duration * Double(sampleRate)).rounded())
        bridgeFrames = Int((Settings.bridge * Double(sampleRate)).rounded())
    }

    /// The level (200 ms RMS) in dBFS.
    public var levelDB: Double {
        let envelope = Double(room.envelope)
        return envelope > 0 ? max(-160, 20 * log10(envelope)) : -160
    }

    /// Feeds one block of `frames` frames starting at `firstFrame`, with its RMS (linear, all channels).
    public mutating func consume(rms: Float, frames: Int, firstFrame: Int) -> Alert? {
        guard frames > 0 else { return nil }
        let blockEnd = firstFrame + frames
        room.add(power: Double(rms) * Double(rms), frames: frames)
        let level = levelDB
        if isArmed {
            if level >= settings.thresholdDB {
                if aboveSince == nil || firstFrame - lastAbove > bridgeFrames { aboveSince = firstFrame }
                lastAbove = blockEnd
            } else if aboveSince != nil, blockEnd - lastAbove > bridgeFrames {
                aboveSince = nil
            }
            if let since = aboveSince, lastAbove == blockEnd, blockEnd - since >= durationFrames {
                isArmed = false
                aboveSince = nil
                lastNearThreshold = blockEnd
                return Alert(startFrame: since, frame: blockEnd, levelDB: level)
            }
        } else if level >= settings.thresholdDB - settings.hysteresis {
            lastNearThreshold = blockEnd
        } else if blockEnd - lastNearThreshold > bridgeFrames {
            isArmed = true
        }
        return nil
    }
}
