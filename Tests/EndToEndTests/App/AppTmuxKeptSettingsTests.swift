import TestSupport
import Foundation
import Testing

/// Settings changed in the app (`m`, `a`, `-`/`+`, `f`, the `V` panel) are kept in the config
/// file's block and are there at the next start; the person's own lines stay as they were; a
/// read-only config is left alone, and the app says so.
@Suite(.serialized) struct AppTmuxKeptSettingsTests {
    /// The person's config: comments, a trailing comment, a blank line.
    static let own = "# my recorder\n# (comments stay)\nformat = flac   # lossless\n\ntranscribe = manual\n"

    static func config(_ sandbox: VoiceMemoSandbox) -> String {
        (try? String(contentsOf: sandbox.configDirectory.appendingPathComponent("voicememo/config"), encoding: .utf8)) ?? ""
    }

    @Test func settingsChangedInTheAppAreThereAfterARestartAndTheConfigsOwnLinesStay() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig(Self.own)
        var app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        try app.waitForStart()
        try app.press("m")
        try app.waitFor("Meter: PPM type I:")
        try app.press("a")
        try app.waitFor("Memos by title")
        try app.type("-")
        try app.waitFor("Volume 90 %")
        try app.press("f")
        try app.waitFor("Enhance on")
        try app.press("V")
        try app.waitFor("Threshold")
        try app.press("Right", "Right")
        try app.waitFor("-38 dB")
        try app.press("Escape", "q")
        var screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")

        var config = Self.config(sandbox)
        #expect(config.hasPrefix(Self.own), "the person's lines, byte for byte: \(config)")
        for line in ["# set in the app", "meter.mode = ppm1", "sort = title", "play.volume = 90", "play.enhance = on", "vox.threshold = -38"] {
            #expect(config.contains("\n" + line + "\n"), "\(line): \(config)")
        }

        app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        screen = try app.waitUntil { $0.contains("Listening to") && !$0.contains("Loading the library") && $0.contains(" L █") }
        #expect(screen.split(separator: "\n").contains { $0.hasPrefix(" L ") && $0.contains(" ppm ") }, "the meter starts as PPM type I: \(screen)")
        // Each key takes the next value from the kept one.
        try app.press("a")
        screen = try app.waitFor("Memos longest first")
        #expect(screen.contains("Memos longest first"), "the order was by title: \(screen)")
        try app.type("+")
        screen = try app.waitFor("Volume 100 %")
        #expect(screen.contains("Volume 100 %"), "the volume was 90 %: \(screen)")
        try app.press("f")
        screen = try app.waitFor("Enhance off")
        #expect(screen.contains("Enhance off"), "enhance was on: \(screen)")
        try app.press("V")
        screen = try app.waitFor("Threshold")
        #expect(screen.contains("-38 dB"), "the panel's threshold was kept: \(screen)")
        try app.press("Escape", "q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")

        config = Self.config(sandbox)
        #expect(config.hasPrefix(Self.own), "\(config)")
        #expect(config.components(separatedBy: "# set in the app").count == 2, "one block: \(config)")
        for line in ["meter.mode = ppm1", "sort = longest", "play.volume = 100", "play.enhance = off", "vox.threshold = -38"] {
            #expect(config.contains("\n" + line + "\n"), "\(line): \(config)")
        }
    }

    @Test func aReadOnlyConfigIsLeftAsItIsAndSaidOnce() throws {
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig(Self.own)
        let path = sandbox.configDirectory.appendingPathComponent("voicememo/config").path
        chmod(path, 0o444)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12")
        try app.waitForStart()
        try app.press("a")
        var screen = try app.waitFor("Settings changed here last until the app quits")
        #expect(screen.contains("the config file is read-only"), "\(screen)")
        try app.press("m")
        try app.waitFor("Meter: PPM type I:")
        try app.press("a")
        // The second change is refused as well, silently: the line keeps the key's own answer.
        screen = try app.waitUntil(timeout: 3) { $0.contains("Settings changed here") }
        #expect(!screen.contains("Settings changed here"), "said once: \(screen)")
        try app.press("q")
        screen = try app.waitFor("END")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(Self.config(sandbox) == Self.own, "untouched")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o444)
        let folder = try FileManager.default.contentsOfDirectory(atPath: sandbox.configDirectory.appendingPathComponent("voicememo").path)
        #expect(folder == ["config"], "no file left beside it: \(folder)")
    }
}
