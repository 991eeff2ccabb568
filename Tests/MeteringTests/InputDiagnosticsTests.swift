import TestSupport
import Glibc
import Testing

@testable import Metering

/// Input diagnostics on synthesised signals, time stepped by the samples fed: each fault
/// appears within its stated time (not before) and clears when its cause goes.
@Suite struct InputDiagnosticsTests {
    static let rate = 8000
    /// One block (50 ms): how late a finding may be (plus rounding of the times).
    static let block = 0.05 + 1e-9

    @Test(arguments: SampleKind.allCases)
    func mutedInputIsSilentAfterTwoSecondsAndClearsWhenSoundReturns(kind: SampleKind) {
        var feed = DiagnosticsFeed(channels: 2, kind: kind)
        feed.run(seconds: 1.95) { _, _ in 0 }
        #expect(feed.diagnostics.diagnosis == nil)
        feed.run(seconds: 0.05) { _, _ in 0 }
        #expect(feed.diagnostics.diagnosis == .silent)
        #expect(feed.firstTime(of: .silent) == 2.0)
        feed.run(seconds: 2) { frame, _ in Voice.speech(frame, peak: -12) }
        #expect(feed.lastChange(to: nil).map { $0 - 2.0 <= Self.block } == true)
        #expect(feed.diagnostics.diagnosis == nil)
    }

    @Test(arguments: SampleKind.allCases)
    func flatDCInputIsSilentToo(kind: SampleKind) {
        var feed = DiagnosticsFeed(channels: 2, kind: kind)
        // A DC level with one 16-bit step of wobble, different in each channel.
        feed.run(seconds: 3) { frame, channel in (channel == 0 ? 0.25 : -0.1) + (frame % 2 == 0 ? 0 : 1.0 / 65536) }
        #expect(feed.firstTime(of: .silent) == 2.0)
        feed.run(seconds: 1) { frame, _ in 0.25 + Voice.speech(frame, peak: -20) }
        #expect(feed.diagnostics.diagnosis == nil)
        #expect(feed.lastChange(to: nil).map { $0 - 3.0 <= Self.block } == true)
    }

    @Test func aSlowDriftIsNotFlat() {
        var feed = DiagnosticsFeed(channels: 1, kind: .float)
        // A ramp of −70 dBFS a second: a 16-bit step every 0.1 s.
        feed.run(seconds: 5) { frame, _ in Double(frame) / Double(Self.rate) * 0.000_316 }
        #expect(feed.firstTime(of: .silent) == nil)
    }

    @Test func quietVoiceIsTooQuietAfterTenSecondsAndClearsWhenItGetsLouder() {
        var feed = DiagnosticsFeed(channels: 2, kind: .int16)
        feed.run(seconds: 9.95) { frame, _ in Voice.speech(frame, peak: -40) }
        #expect(feed.changes.isEmpty)
        feed.run(seconds: 1) { frame, _ in Voice.speech(frame, peak: -40) }
        let appeared = feed.firstTime(of: .tooQuiet)
        #expect(appeared.map { $0 >= 10 && $0 <= 10 + Self.block } == true, "appeared at \(String(describing: appeared))")
        feed.run(seconds: 1) { frame, _ in Voice.speech(frame, peak: -18) }
        #expect(feed.diagnostics.diagnosis == nil)
        #expect(feed.lastChange(to: nil).map { $0 - 11 <= Self.block } == true)
    }

    @Test func tooQuietGoesWhenTheSpeechStops() {
        var feed = DiagnosticsFeed(channels: 1, kind: .float)
        feed.run(seconds: 11) { frame, _ in Voice.speech(frame, peak: -40) }
        #expect(feed.diagnostics.diagnosis == .tooQuiet)
        // Room noise only. The bursts were 9.0–9.3, 9.5–9.8, 10.0–10.3 and 10.5–10.8 s: the
        // last 10 s hold less than 1 s (20 blocks) of them once the window starts after 9.2 s.
        feed.run(seconds: 10) { frame, _ in Voice.noise(frame, rms: -75) }
        #expect(feed.changes.map(\.diagnosis) == [.tooQuiet, nil])
        #expect(feed.lastChange(to: nil) == 19.25)
    }

    @Test func roomNoiseAloneIsNotTooQuiet() {
        var feed = DiagnosticsFeed(channels: 2, kind: .int32)
        feed.run(seconds: 25) { frame, channel in Voice.noise(frame * 2 + channel, rms: -70) }
        #expect(feed.changes.isEmpty)
    }

    @Test(arguments: SampleKind.allCases)
    func clippingVoiceIsTooHotAtOnceAndClearsThreeSecondsAfterTheLastClip(kind: SampleKind) {
        var feed = DiagnosticsFeed(channels: 2, kind: kind)
        feed.run(seconds: 1) { frame, _ in Voice.speech(frame, peak: -12) }
        #expect(feed.changes.isEmpty)
        // One syllable (1.0–1.3 s) driven 6 dB past full scale: clipped flat.
        feed.run(seconds: 0.3) { frame, _ in max(min(Voice.speech(frame, peak: 6), 1), -1) }
        #expect(feed.firstTime(of: .tooHot).map { $0 - 1 <= Self.block } == true)
        feed.run(seconds: 4) { frame, _ in Voice.speech(frame, peak: -12) }
        let cleared = feed.lastChange(to: nil)
        #expect(cleared.map { $0 >= 1.3 + 3 && $0 <= 1.3 + 3 + Self.block } == true, "cleared at \(String(describing: cleared))")
        #expect(feed.changes.count == 2)
    }

    @Test func lessThanThreeDecibelsOfHeadroomIsTooHot() {
        var hot = DiagnosticsFeed(channels: 1, kind: .float)
        hot.run(seconds: 1) { frame, _ in Voice.speech(frame, peak: -2.5) }
        #expect(hot.firstTime(of: .tooHot).map { $0 <= Self.block } == true)
        var fine = DiagnosticsFeed(channels: 1, kind: .float)
        fine.run(seconds: 12) { frame, _ in Voice.speech(frame, peak: -3.5) }
        #expect(fine.changes.isEmpty)
    }

    @Test(arguments: SampleKind.allCases)
    func deadRightChannelIsNamedAfterTwoSecondsAndClearsWhenItComesBack(kind: SampleKind) {
        var feed = DiagnosticsFeed(channels: 2, kind: kind)
        feed.run(seconds: 3) { frame, channel in channel == 0 ? Voice.speech(frame, peak: -12) : 0 }
        let dead = InputDiagnosis.channelSilent(channels: [1], channelCount: 2)
        #expect(feed.firstTime(of: dead) == 2.0)
        #expect(dead.message.hasPrefix("Right channel is silent"))
        feed.run(seconds: 1) { frame, _ in Voice.speech(frame, peak: -12) }
        #expect(feed.diagnostics.diagnosis == nil)
        #expect(feed.lastChange(to: nil).map { $0 - 3 <= Self.block } == true)
    }

    @Test func silentChannelsBeyondStereoAreNumbered() {
        var feed = DiagnosticsFeed(channels: 4, kind: .float)
        feed.run(seconds: 2.5) { frame, channel in channel < 2 ? Voice.speech(frame, peak: -12) : 0 }
        #expect(feed.diagnostics.diagnosis == .channelSilent(channels: [2, 3], channelCount: 4))
        #expect(feed.diagnostics.diagnosis?.message.hasPrefix("Channels 3 and 4 are silent: ") == true)
        #expect(InputDiagnosis.channelSilent(channels: [0], channelCount: 2).message.hasPrefix("Left channel is silent: "))
        #expect(InputDiagnosis.channelSilent(channels: [1, 2, 3], channelCount: 6).message.hasPrefix("Channels 2, 3 and 4 are "))
    }

    @Test func theMessagesKeepTheIssuesWording() {
        #expect(InputDiagnosis.silent.message == "Input is silent: is the capture switch off or muted? (alsamixer, F4)")
        #expect(InputDiagnosis.tooHot.message.hasPrefix("Too hot: "))
        #expect(InputDiagnosis.tooQuiet.message.hasPrefix("Too quiet: speech peaks stay below −30 dBFS"))
        let stereo: [InputDiagnosis] = [.silent, .channelSilent(channels: [0], channelCount: 2), .tooHot, .tooQuiet]
        for diagnosis in stereo {
            #expect(diagnosis.message.count <= 78, "\(diagnosis.message) fits one line of 80 columns")
        }
    }

    @Test func theMoreFundamentalFindingWins() {
        // A clipping left channel and a dead right one: the dead channel is named.
        var feed = DiagnosticsFeed(channels: 2, kind: .int16)
        feed.run(seconds: 2.5) { frame, channel in channel == 0 ? max(min(Voice.speech(frame, peak: 6), 1), -1) : 0 }
        #expect(feed.changes.map(\.diagnosis) == [.tooHot, .channelSilent(channels: [1], channelCount: 2)])
        // Then the whole input falls silent (the left's last syllable ended at 2.3 s).
        feed.run(seconds: 2.5) { _, _ in 0 }
        #expect(feed.diagnostics.diagnosis == .silent)
        #expect(feed.firstTime(of: .silent) == 4.3)
    }

    @Test func buffersSplitAnywhereGiveTheSameFindings() {
        let signal: (Int, Int) -> Double = { frame, channel in
            let second = frame / InputDiagnosticsTests.rate
            if second < 3 { return channel == 0 ? Voice.speech(frame, peak: -12) : 0 }
            if second < 6 { return 0 }
            return max(min(Voice.speech(frame, peak: 3), 1), -1)
        }
        var blocks = DiagnosticsFeed(channels: 2, kind: .float, chunkSamples: 800)
        blocks.run(seconds: 8, signal)
        var ragged = DiagnosticsFeed(channels: 2, kind: .float, chunkSamples: 7)
        ragged.run(seconds: 8, signal)
        #expect(blocks.changes.map(\.diagnosis) == [.channelSilent(channels: [1], channelCount: 2), .silent, .tooHot])
        #expect(blocks.changes == ragged.changes)
    }

    @Test func nanAndOverRangeFloatsFollowTheMeterRules() {
        var feed = DiagnosticsFeed(channels: 1, kind: .float)
        feed.run(seconds: 2) { _, _ in .nan }
        #expect(feed.diagnostics.diagnosis == .silent)
        feed.run(seconds: 0.1) { frame, _ in frame % 2 == 0 ? .infinity : -2 }
        #expect(feed.diagnostics.diagnosis == .tooHot)
    }
}

/// Test voices: tone bursts shaped like syllables, and quiet noise.
enum Voice {
    /// 300 ms of a 200 Hz tone whose peak is `peak` dBFS, then 200 ms of nothing, repeated.
    static func speech(_ frame: Int, peak: Double) -> Double {
        let rate = InputDiagnosticsTests.rate
        guard frame % (rate / 2) < rate * 3 / 10 else { return 0 }
        return pow(10, peak / 20) * sin(2 * Double.pi * 200 * Double(frame) / Double(rate) + 0.5)
    }

    /// Uniform noise whose RMS is `rms` dBFS, the same for the same `index`.
    static func noise(_ index: Int, rms: Double) -> Double {
        var generator = SplitMix64(seed: UInt64(truncatingIfNeeded: index))
        let uniform = Double(generator.next() >> 11) / Double(1 << 53) * 2 - 1
        return uniform * pow(10, rms / 20) * 3.0.squareRoot()
    }
}

/// Feeds `InputDiagnostics` a signal in chunks, converted to one sample format, and notes
/// every change of diagnosis with the time (frames ÷ rate) it happened.
struct DiagnosticsFeed {
    struct Change: Equatable {
        var time: Double
        var diagnosis: InputDiagnosis?
    }

    var diagnostics: InputDiagnostics
    let kind: SampleKind
    let chunkSamples: Int
    private(set) var frame = 0
    private(set) var changes: [Change] = []

    /// `chunkSamples` below one block (400 samples in mono) sees every block's finding.
    init(channels: Int, kind: SampleKind, chunkSamples: Int = 333) {
        diagnostics = InputDiagnostics(channels: channels, sampleRate: InputDiagnosticsTests.rate)
        self.kind = kind
        self.chunkSamples = chunkSamples
    }

    /// Feeds `seconds` of `signal(frame, channel)` (1.0 = full scale), in chunks that end
    /// anywhere, even mid-frame; changes are checked after every sample chunk.
    mutating func run(seconds: Double, _ signal: (Int, Int) -> Double) {
        let channels = diagnostics.channelCount
        let end = frame + Int((seconds * Double(InputDiagnosticsTests.rate)).rounded())
        var samples: [Double] = []
        for frame in frame..<end {
            for channel in 0..<channels { samples.append(signal(frame, channel)) }
        }
        frame = end
        var offset = 0
        while offset < samples.count {
            let chunk = Array(samples[offset..<min(offset + chunkSamples, samples.count)])
            offset += chunk.count
            switch kind {
            case .int16: TestSignals.int16(chunk).withUnsafeBufferPointer { diagnostics.consume($0) }
            case .int32: TestSignals.int32(chunk).withUnsafeBufferPointer { diagnostics.consume($0) }
            case .float: TestSignals.float(chunk).withUnsafeBufferPointer { diagnostics.consume($0) }
            }
            let current = diagnostics.diagnosis
            if current != (changes.last?.diagnosis ?? nil) {
                changes.append(Change(time: Double(diagnostics.framesConsumed) / Double(InputDiagnosticsTests.rate), diagnosis: current))
            }
        }
    }

    /// When `diagnosis` first appeared.
    func firstTime(of diagnosis: InputDiagnosis) -> Double? {
        changes.first { $0.diagnosis == diagnosis }?.time
    }

    /// When the diagnosis last changed to `diagnosis`.
    func lastChange(to diagnosis: InputDiagnosis?) -> Double? {
        changes.last { $0.diagnosis == diagnosis }?.time
    }
}
