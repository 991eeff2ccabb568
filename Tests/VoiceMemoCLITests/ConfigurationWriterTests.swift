import AppRuntime
import Foundation
import Interface
import Testing

@testable import VoiceMemoCLI

/// Writing the app's block into the config file on disk: atomically, through a link, never
/// over a read-only file or in a read-only folder.
@Suite struct ConfigurationWriterTests {
    /// A fresh `XDG_CONFIG_HOME` of its own.
    struct Home {
        let root: String
        var environment: [String: String] { ["XDG_CONFIG_HOME": root + "/config", "HOME": root + "/home"] }
        var folder: String { root + "/config/voicememo" }
        var config: String { folder + "/config" }

        init() throws {
            root = NSTemporaryDirectory() + "vm-config-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        func write(_ text: String, mode: Int = 0o644) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: config))
            chmod(config, mode_t(mode))
        }

        func text(_ path: String? = nil) -> String? {
            FileManager.default.contents(atPath: path ?? config).flatMap { String(data: $0, encoding: .utf8) }
        }

        func mode(_ path: String) -> Int {
            var info = stat()
            stat(path, &info)
            return Int(info.st_mode & 0o7777)
        }

        /// Names in `folder` besides those given: a temporary file left behind would show here.
        func strays(in folder: String, besides names: Set<String>) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !names.contains($0) }
        }

        func remove() {
            chmod(folder, 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    @Test func aMissingFileAndItsFolderAreCreated() throws {
        let home = try Home()
        defer { home.remove() }
        try ConfigurationWriter.keep([.meterMode(.vu), .sortOrder(.byTitle)], environment: home.environment)
        let text = try #require(home.text())
        #expect(text == AppSettingsBlock.marker + "\n" + AppSettingsBlock.note + "\nmeter.mode = vu\nsort = title\n")
        #expect(home.mode(home.config) == 0o644)
        let configuration = try ConfigurationFile.load(environment: home.environment)
        #expect(configuration.meterMode == .vu && configuration.sortOrder == .byTitle)
    }

    @Test func thePersonsLinesAndTheFilesModeAreKept() throws {
        let home = try Home()
        defer { home.remove() }
        let own = "# private\nformat = flac  # lossless\n"
        try home.write(own, mode: 0o600)
        try ConfigurationWriter.keep([.volume(70)], environment: home.environment)
        try ConfigurationWriter.keep([.volume(80), .enhance(true)], environment: home.environment)
        let text = try #require(home.text())
        #expect(text.hasPrefix(own))
        #expect(text.hasSuffix("play.volume = 80\nplay.enhance = on\n"))
        #expect(home.mode(home.config) == 0o600)
        #expect(home.strays(in: home.folder, besides: ["config"]).isEmpty)
    }

    @Test func aLinkedConfigIsWrittenThroughAndStaysALink() throws {
        let home = try Home()
        defer { home.remove() }
        let dotfiles = home.root + "/dotfiles"
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home.folder, withIntermediateDirectories: true)
        let target = dotfiles + "/voicememo.conf"
        try Data("format = wav\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: home.config, withDestinationPath: target)
        try ConfigurationWriter.keep([.sortOrder(.longestFirst)], environment: home.environment)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.config) == target)
        #expect(home.text(target)?.hasPrefix("format = wav\n") == true)
        #expect(home.text(target)?.hasSuffix("sort = longest\n") == true)
        #expect(home.strays(in: dotfiles, besides: ["voicememo.conf"]).isEmpty)
        #expect(try ConfigurationFile.load(environment: home.environment).sortOrder == .longestFirst)
    }

    @Test func aLinkToNothingIsRefusedAndLeftAsItIs() throws {
        let home = try Home()
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: home.folder, withIntermediateDirectories: true)
        let target = home.root + "/gone/voicememo.conf"
        try FileManager.default.createSymbolicLink(atPath: home.config, withDestinationPath: target)
        #expect(throws: SettingsNotSaved.self) { try ConfigurationWriter.keep([.volume(50)], environment: home.environment) }
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.config) == target)
    }

    @Test func aReadOnlyFileIsLeftUntouched() throws {
        let home = try Home()
        defer { home.remove() }
        let own = "format = wav\n"
        try home.write(own, mode: 0o444)
        var refusal: SettingsNotSaved?
        do {
            try ConfigurationWriter.keep([.meterMode(.vu)], environment: home.environment)
        } catch {
            refusal = error
        }
        #expect(refusal == SettingsNotSaved(reason: "the config file is read-only (\(home.config))"))
        #expect(home.text() == own)
        #expect(home.mode(home.config) == 0o444)
    }

    @Test func aReadOnlyFolderIsLeftUntouched() throws {
        let home = try Home()
        defer { home.remove() }
        let own = "format = wav\n"
        try home.write(own)
        chmod(home.folder, 0o555)
        #expect(throws: SettingsNotSaved.self) { try ConfigurationWriter.keep([.meterMode(.vu)], environment: home.environment) }
        #expect(home.text() == own)
        #expect(home.strays(in: home.folder, besides: ["config"]).isEmpty)
    }
}
