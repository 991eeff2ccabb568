import TestSupport
import Testing

@testable import Interface

/// The screen while a memo plays and while playback is paused, at the sizes people use
/// and the smallest one.
@Suite struct PlaybackSnapshotTests {
    static let sizes: [(Int, Int)] = [(80, 24), (120, 40), (40, 12), (1, 1)]

    /// "Standup notes" (2:11) playing, 47 s in, at a voice's levels.
    static func playing(width: Int, height: Int, _ more: [Action] = []) -> AppState {
        Fixtures.state(width: width, height: height, [
            .playbackStarted(memoID: 1, title: "Standup notes", duration: 131, channels: 2),
            .playbackProgress(time: Fixtures.now + 11, PlaybackSnapshot(elapsed: 47.3, channels: [
                ChannelLevel(average: -12.4, peak: -3.2), ChannelLevel(average: -30.1, peak: -20.5),
            ])),
            .tick(time: Fixtures.now + 11, snapshot: Fixtures.levels(recording: .idle)),
        ] + more)
    }

    static let scenes: [(String, @Sendable (Int, Int) -> AppState)] = [
        ("playing", { playing(width: $0, height: $1) }),
        ("playback-paused", { playing(width: $0, height: $1, [.key(.character(" "))]) }),
        // 1.5×, +2 st, 120 % (clipping), skip silence with 3.1 s skipped.
        ("playing-adjusted", {
            playing(width: $0, height: $1, "]]]]]}}++x".map { Action.key(.character($0)) } + [
                .playbackProgress(time: Fixtures.now + 12, PlaybackSnapshot(elapsed: 48.3, channels: [
                    ChannelLevel(average: -10.4, peak: 0), ChannelLevel(average: -28.1, peak: -18.5),
                ], skippedSeconds: 3.14, clippedSamples: 12)),
            ])
        }),
        // Markers at 0:10, 1:00 and 2:00 on the bar.
        ("playing-with-markers", {
            playing(width: $0, height: $1, [.markersLoaded(memoID: 1, times: [10, 60, 120])])
        }),
        ("playing-mono-without-input", {
            Fixtures.state(width: $0, height: $1, input: nil, [
                .key(.down),
                .playbackStarted(memoID: 2, title: "Idea for the parser", duration: 37, channels: 1),
                .playbackProgress(time: Fixtures.now + 11, PlaybackSnapshot(elapsed: 36.9, channels: [
                    ChannelLevel(average: -6, peak: -1),
                ])),
            ])
        }),
    ]

    @Test(arguments: 0..<scenes.count)
    func scene(_ index: Int) {
        let (name, make) = Self.scenes[index]
        for (width, height) in Self.sizes {
            assertSnapshot(AppView.render(make(width, height)), named: "\(name)-\(width)x\(height)")
        }
        let empty = AppView.render(make(0, 0))
        #expect(empty.lines().isEmpty)
    }
}
