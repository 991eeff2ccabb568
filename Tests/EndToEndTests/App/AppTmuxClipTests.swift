import TestSupport
import Foundation
import Testing

/// The app's CLIP light follows the one clip rule (`ClipRule`: three full-scale samples in a
/// row), as `meter`, `record` and `analyze` count it (`LibraryLoudnessTests`): lone and paired
/// full-scale samples on a loud tone leave it out; runs of three light it.
@Suite(.serialized) struct AppTmuxClipTests {
    static func write(_ path: String, runLength: Int) throws {
        let starts = stride(from: 4_800, to: 4 * 48_000, by: 12_000)
        let frames = starts.flatMap { start in (0..<runLength).map { start + $0 } }
        try TestSignals.writeSines(to: path, levels: [-6, -6], seconds: 4, fullScaleFrames: frames)
    }

    @Test func pairsOfFullScaleSamplesDoNotLightClip() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("pairs.wav").path
        try Self.write(path, runLength: 2)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        var sawClip = false
        let screen = try app.waitUntil(timeout: 20) { screen in
            if screen.contains("CLIP") { sawClip = true }
            return screen.contains("No input. Press i")
        }
        #expect(screen.contains("No input. Press i"), "the file played to its end: \(screen)")
        #expect(!sawClip, "16 pairs of full-scale samples are no clip")
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    @Test func runsOfThreeLightClip() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("runs.wav").path
        try Self.write(path, runLength: 3)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        var screen = try app.waitFor("CLIP", timeout: 10)
        #expect(screen.contains("CLIP"))
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
