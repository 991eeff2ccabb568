import Vocabulary
import Metering

import Interface

/// States and memos the view and reducer tests share. Fixed clock: 2026-11-29 14:05 UTC.
public enum Fixtures {
    public static let now: Double = 1_795_961_100

    public static func memo(
        _ id: Int64, _ title: String, minutesAgo: Double, seconds: Double, size: Int64, loudness: Double? = nil
    ) -> MemoRow {
        MemoRow(
            id: id, title: title, created: now - minutesAgo * 60, duration: seconds,
            frames: Int64(seconds * 48000), sampleRate: 48000, channels: 2, format: "flac", encoding: "pcm16",
            fileShown: "/library/\(id).flac", size: size, peakDB: -3, state: .complete, loudnessLUFS: loudness)
    }

    public static let memos: [MemoRow] = [
        memo(1, "Standup notes", minutesAgo: 2, seconds: 131, size: 1_200_000, loudness: -23.04),
        memo(2, "Idea for the parser", minutesAgo: 60 * 24 + 30, seconds: 37, size: 310_000, loudness: -16.25),
        memo(3, "Interview with Dr. Ōtsuka", minutesAgo: 60 * 24 * 5, seconds: 3725, size: 48_300_000, loudness: -9.96),
        // Not measured (an index from before loudness statistics, or silence): shows "—".
        memo(4, "Grocery list", minutesAgo: 60 * 24 * 40, seconds: 12, size: 98_000),
    ]

    public static let hostileMemos: [MemoRow] = [
        memo(10, "\u{1B}[2J\u{1B}[31mgotcha\u{7}", minutesAgo: 1, seconds: 5, size: 40_000),
        memo(11, "会議のメモ 東京オフィス", minutesAgo: 3, seconds: 65, size: 500_000),
        memo(12, "🎤🎙️ podcast take 2 👍🏽", minutesAgo: 4, seconds: 600, size: 4_800_000),
        memo(13, "tab\there\nnewline\u{202E}reversed", minutesAgo: 5, seconds: 1, size: 999),
        memo(14, "e\u{301}le\u{300}ve combining marks", minutesAgo: 6, seconds: 2, size: 1_500),
    ]

    public static let input = InputDescription(name: .alsa(device: "default"), sampleRate: 48000, channels: 2, recordingFormat: "FLAC")

    /// A state at `width`×`height` after `actions`, starting from an open input and the memos.
    public static func state(
        width: Int, height: Int, memos: [MemoRow] = memos, input: InputDescription? = input, usesColor: Bool = true,
        _ actions: [Action] = []
    ) -> AppState {
        var state = AppState(width: width, height: height, usesColor: usesColor, now: now)
        if let input { _ = reduce(&state, .inputOpened(input)) }
        _ = reduce(&state, .libraryLoaded(memos: memos, deleted: []))
        _ = reduce(&state, .tick(time: now + 10, snapshot: input.map { _ in levels(recording: .idle) }))
        for action in actions { _ = reduce(&state, action) }
        return state
    }

    /// Levels of a voice at about −18 dB with peaks near −6 dB.
    public static func levels(recording: RecordingState, frames: Int64 = 0, diagnosis: InputDiagnosis? = nil) -> EngineSnapshot {
        EngineSnapshot(
            channels: [ChannelLevel(average: -18.2, peak: -6.1), ChannelLevel(average: -19.0, peak: -7.3)],
            recordedFrames: frames, recording: recording, diagnosis: diagnosis)
    }

    /// A muted input: digital silence in both channels, diagnosed so.
    public static let mutedInput = EngineSnapshot(
        channels: Array(repeating: ChannelLevel(average: -160, peak: -160), count: 2), diagnosis: .silent)

    /// A voice in the left channel only, the right diagnosed silent.
    public static let deadRightChannel = EngineSnapshot(
        channels: [ChannelLevel(average: -18.2, peak: -6.1), ChannelLevel(average: -160, peak: -160)],
        recordedFrames: 48000 * 5, recording: .recording, diagnosis: .channelSilent(channels: [1], channelCount: 2))
}
