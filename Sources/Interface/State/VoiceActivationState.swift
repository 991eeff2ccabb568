/// Voice-activated recording as the app sees it: the parameters the person chose for
/// this session, the ones the running detector was armed with, and the detector's
/// latest reading (`nil` when voice activation is off).
public struct VoiceActivationState: Sendable, Hashable {
    /// What `v` arms with; the settings panel (`V`) edits them.
    public var parameters: VoiceParameters
    /// What the running detector was armed with; `nil` when off.
    public var armedWith: VoiceParameters?
    /// The detector's latest reading; `nil` when off. Comes from the engine in ticks.
    public var status: VoiceActivationSnapshot?
    /// Armed (`v`, or a re-arm from the panel) and not yet read from the engine: the runner
    /// attaches the detector beside the loop, and ticks before that read none. They must not
    /// clear `armedWith` (they did: the panel's next change then re-armed nothing, silently,
    /// when `V` was opened within a tick or two of `v`).
    public var isArming = false

    public init(parameters: VoiceParameters = VoiceParameters()) {
        self.parameters = parameters
    }

    /// Whether `v` has armed voice activation on the open input.
    public var isArmed: Bool { status != nil }

    /// Whether a take is being recorded now.
    public var isRecordingTake: Bool { status?.phase == .recording }

    /// The status line's warning when the room's noise floor is close to the threshold (takes
    /// may then start on the room alone, or not end); `nil` otherwise.
    public var noiseWarning: String? {
        guard let status, status.noiseIsClose, let floor = status.noiseFloorDB else { return nil }
        return "Room noise \(Int(floor.rounded())) dB is close to the \(Int(status.thresholdDB.rounded())) dB threshold: raise it or press V"
    }

    /// Whether the input's "too quiet" is to be left unsaid: while armed with the speech
    /// detector and no speech was heard lately, the level is the room's, not a voice's (a room
    /// close to the threshold says so instead, `noiseWarning`).
    public var silencesTooQuiet: Bool {
        guard let status, status.hearsSpeech != nil else { return false }
        return !status.heardSpeechRecently
    }

    /// What the `V` panel says the detector hears now; `nil` when voice activation is off.
    public var hearingText: String? {
        guard let status else { return nil }
        switch status.hearsSpeech {
        case .some(true): return "Hears now: speech"
        case .some(false): return "Hears now: no speech (room, noise, tones)"
        case .none: return "Hears now: the level only (vox.level_only = on)"
        }
    }

    /// The status line while the last take is replayed (the detector is not listening).
    public var replayNotice: String? {
        guard status?.phase == .replaying else { return nil }
        let pitch = (armedWith ?? parameters).replay.pitchText.map { " " + $0 } ?? ""
        return "Replaying the last take\(pitch); not listening until it has played."
    }
}

/// What the voice-activation detector is doing.
public enum VoiceActivationPhase: Sendable, Hashable {
    /// Measuring the noise floor before listening.
    case calibrating
    /// Waiting for the level to reach the threshold.
    case listening
    /// Recording a take; it ends after the silence hang time.
    case recording
    /// Playing the last take back (the replay, `V`); the input is ignored until just after
    /// its end, then listening resumes.
    case replaying
}

/// One reading of the voice-activation detector, taken by the runner at a tick.
public struct VoiceActivationSnapshot: Sendable, Hashable {
    public var phase: VoiceActivationPhase
    /// The smoothed detector level, in dBFS.
    public var levelDB: Float
    /// The level that starts a take, in dBFS.
    public var thresholdDB: Double
    /// Seconds of silence so far in the take being recorded.
    public var silence: Double
    /// Seconds of silence that end a take.
    public var hangTime: Double
    /// Frames of the take being recorded so far (0 when none is): the header's timer.
    public var takeFrames: Int64
    /// The room's noise floor (the quietest 250 ms of the last ~10 s), in dBFS; `nil` until heard.
    public var noiseFloorDB: Double?
    /// Whether the detector finds the floor within its margin (10 dB) of the threshold.
    public var noiseIsClose: Bool
    /// What the speech detector hears in the latest block: speech (`true`) or not; `nil` when
    /// the level alone decides (`vox.level_only`).
    public var hearsSpeech: Bool?
    /// Whether the speech detector heard speech in the last 10 s: the input's "too quiet" is
    /// about speech, and the room alone says nothing about it.
    public var heardSpeechRecently: Bool
    /// The memo the take being recorded goes into, and its file's size so far in bytes: its
    /// row in the table counts them (the index has 0 s and 0 B until the take is saved).
    public var take: (memoID: Int64, bytes: Int64?)? {
        get { takeMemoID.map { ($0, takeBytes) } }
        set { takeMemoID = newValue?.memoID; takeBytes = newValue?.bytes }
    }
    private var takeMemoID: Int64?
    private var takeBytes: Int64?

    public init(
        phase: VoiceActivationPhase, levelDB: Float, thresholdDB: Double, silence: Double, hangTime: Double,
        takeFrames: Int64 = 0, noiseFloorDB: Double? = nil, noiseIsClose: Bool = false,
        hearsSpeech: Bool? = nil, heardSpeechRecently: Bool = false, take: (memoID: Int64, bytes: Int64?)? = nil
    ) {
        self.hearsSpeech = hearsSpeech
        self.heardSpeechRecently = heardSpeechRecently
        takeMemoID = take?.memoID
        takeBytes = take?.bytes
        self.noiseFloorDB = noiseFloorDB
        self.noiseIsClose = noiseIsClose
        self.phase = phase
        self.levelDB = levelDB
        self.thresholdDB = thresholdDB
        self.silence = silence
        self.hangTime = hangTime
        self.takeFrames = takeFrames
    }
}
