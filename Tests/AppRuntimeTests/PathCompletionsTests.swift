import Foundation
import TestSupport
import Testing

@testable import AppRuntime

@Suite struct PathCompletionsTests {
    @Test func theFoldersEntriesThatStartWithTheNameAreListedAsTyped() throws {
        let folder = try TemporaryDirectory()
        for name in ["take 1.wav", "take 2.wav", ".hidden.wav", "other.flac"] {
            _ = FileManager.default.createFile(atPath: folder.file(name), contents: Data())
        }
        try FileManager.default.createDirectory(atPath: folder.file("takes"), withIntermediateDirectories: false)
        #expect(PathCompletions.matches(for: folder.path + "/take", home: nil)
            == [folder.path + "/take 1.wav", folder.path + "/take 2.wav", folder.path + "/takes/"])
        #expect(PathCompletions.matches(for: folder.path + "/", home: nil).count == 4, "hidden names only for a dot")
        #expect(PathCompletions.matches(for: folder.path + "/.h", home: nil) == [folder.path + "/.hidden.wav"])
        #expect(PathCompletions.matches(for: folder.path + "/nothing", home: nil).isEmpty)
        #expect(PathCompletions.matches(for: folder.path + "/missing/x", home: nil).isEmpty, "a folder that is not there")
    }

    @Test func tildeIsTheHomeFolderAndStaysAsTyped() throws {
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: home.file("Music"), withIntermediateDirectories: false)
        #expect(PathCompletions.matches(for: "~/Mu", home: home.path) == ["~/Music/"])
    }
}
