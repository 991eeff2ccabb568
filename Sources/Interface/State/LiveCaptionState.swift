import Vocabulary

/// Live captions while recording (`C`, or `captions = on`): the draft words the recogniser
/// hears, shown under the meter until the memo is saved and transcribed whole.
public struct LiveCaptionState: Sendable, Equatable {
    /// Whether captions run while recording.
    public var isOn = false
    /// The settled words of this recording, oldest first, cut to the last `keptCharacters`.
    public private(set) var settled = ""
    /// The recogniser's guess at the utterance in progress ("" between utterances).
    public private(set) var guess = ""
    /// Why captions stopped during this recording (the machine fell behind, no model); they
    /// start again with the next recording.
    public private(set) var stopped: String?

    /// More than the widest caption line shows.
    static let keptCharacters = 600

    public init() {}

    /// The words shown: the settled ones, then the guess.
    public var draft: String {
        settled.isEmpty ? guess : guess.isEmpty ? settled : settled + " " + guess
    }

    /// Whether the recogniser should run now: captions are on and nothing stopped them, and
    /// the input is being recorded (not paused: what is not recorded is not captioned).
    func isWanted(recording: RecordingState) -> Bool {
        isOn && stopped == nil && recording == .recording
    }

    /// Takes what the recogniser reported.
    mutating func apply(_ update: CaptionUpdate) {
        switch update {
        case .words(let text, let isFinal):
            let clean = TerminalText.safe(text)
            guard isFinal else {
                guess = clean
                return
            }
            guess = ""
            guard !clean.isEmpty else { return }
            settled = settled.isEmpty ? clean : settled + " " + clean
            if settled.count > Self.keptCharacters { settled = String(settled.suffix(Self.keptCharacters)) }
        case .stopped(let reason):
            guess = ""
            stopped = reason
        }
    }

    /// A new recording: an empty draft, and captions may run again.
    mutating func clear() {
        settled = ""
        guess = ""
        stopped = nil
    }
}

/// What the live captioner reports to the app, in the app's own terms.
public enum CaptionUpdate: Sendable, Equatable {
    /// Words: a guess at the utterance in progress, or (`isFinal`) its settled words.
    case words(String, isFinal: Bool)
    /// Captions stopped for this recording, and why ("this machine cannot keep up").
    case stopped(reason: String)
}
