import TestSupport
import Foundation
import Testing

/// The input diagnostics on the app's status line, in tmux, on `file:` sources made for
/// each fault: the message appears while the fault lasts and goes when it does. (A file is
/// told what the file holds, not about mixers: `InputDiagnosis.message(for:)`; a card's
/// and a sound server's words are `InputAdviceTests`' and `AppTmuxInputAdviceTests`'.)
@Suite(.serialized) struct AppTmuxDiagnosticsTests {
    @Test func aMutedInputSaysSoUntilSoundComes() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("muted.wav").path
        // Digital silence, then a voice-level tone: the message comes, then goes.
        try TestSignals.writeSines(to: path, sections: [(9, [nil, nil]), (20, [-12, -12])])
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        // The long path wraps the message: "Listening to" stays on its first line.
        var screen = try app.waitFor("Listening to")
        #expect(screen.contains("Listening to") && !screen.contains("Input is silent"), "not at once: \(screen)")
        screen = try app.waitFor("Input is silent", timeout: 8)
        #expect(screen.contains(" Input is silent: this part of the file holds no sound"), "\(screen)")
        screen = try app.waitUntil(timeout: 12) { $0.contains(" L █") && !$0.contains("Input is silent") }
        #expect(screen.contains(" L █") && !screen.contains("Input is silent"), "sound is back, the message gone: \(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    @Test func aDeadRightChannelIsNamedAndTheMessageFitsANarrowScreen() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("dead-right.wav").path
        try TestSignals.writeSines(to: path, levels: [-12, nil], seconds: 30)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        var screen = try app.waitFor("Right channel is silent", timeout: 12)
        #expect(screen.contains(" Right channel is silent in the file"), "\(screen)")
        try app.resize(width: 30, height: 18)
        screen = try app.waitFor("the file")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.hasPrefix(" Right channel is silent") }, "wrapped at a word: \(screen)")
        #expect(lines.allSatisfy { $0.count <= 30 }, "\(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }
}
