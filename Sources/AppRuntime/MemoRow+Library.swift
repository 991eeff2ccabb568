import Interface
import MemoLibrary

/// The edge between the library's values and the app's: every `Memo` the app shows becomes a
/// `MemoRow` here, and every transcript word a `SpokenWord`. The other way, the app names memos
/// by id and the runner asks the library (`MemoStore`).
extension MemoRow {
    /// The app's row for `memo` (also what `list --filter` matches, as `/` does).
    public init(_ memo: Memo) {
        self.init(
            id: memo.id, title: memo.title, created: memo.created.timeIntervalSince1970, duration: memo.duration,
            frames: memo.frames, sampleRate: memo.sampleRate, channels: memo.channels,
            format: memo.format.rawValue, encoding: memo.encoding.rawValue, fileShown: memo.path, size: memo.size,
            peakDB: memo.peakDB, state: State(memo.state), deletedAt: memo.deletedAt?.timeIntervalSince1970,
            loudnessLUFS: memo.loudnessLUFS, truePeakDBTP: memo.truePeakDBTP, loudnessRange: memo.loudnessRange,
            clipCount: memo.clipCount, deletionReason: memo.deletionReason)
        tags = memo.tags
        isStarred = memo.isStarred
    }
}

extension MemoRow.State {
    init(_ state: Memo.State) {
        self = switch state {
        case .recording: .recording
        case .complete: .complete
        case .recovered: .recovered
        case .missing: .missing
        case .damaged: .damaged
        }
    }
}

extension SpokenWord {
    init(_ word: TranscriptWord) {
        self.init(word: word.word, start: word.start, end: word.end, speaker: word.speaker)
    }
}
