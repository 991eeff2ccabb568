import Foundation

/// Finds the built `voicememo` executable for end-to-end tests.
///
/// Looks in `$VOICEMEMO_BIN_DIR` first (Tests/run-all.sh sets it to `swift build
/// --show-bin-path`), then next to the running test bundle, which is where `swift test` puts
/// the package's executables too.
enum VoiceMemoBinary {
    /// Raised when no candidate directory holds an executable `voicememo`.
    struct NotFound: Error, CustomStringConvertible {
        let searched: [String]

        var description: String {
            "the voicememo binary was not found (build it with `swift build`); looked in: "
                + searched.joined(separator: ", ")
        }
    }

    /// The executable's location.
    ///
    /// - Throws: ``NotFound`` listing the directories searched.
    static func url(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let directories = candidateDirectories(environment: environment)
        for directory in directories {
            let candidate = directory.appendingPathComponent("voicememo")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw NotFound(searched: directories.map(\.path))
    }

    private static func candidateDirectories(environment: [String: String]) -> [URL] {
        var directories: [URL] = []
        if let binDirectory = environment["VOICEMEMO_BIN_DIR"], !binDirectory.isEmpty {
            directories.append(URL(fileURLWithPath: binDirectory, isDirectory: true))
        }
        if let testRunner = CommandLine.arguments.first {
            let runner = URL(fileURLWithPath: testRunner).resolvingSymlinksInPath()
            directories.append(runner.deletingLastPathComponent())
            // On macOS the runner sits inside `VoiceMemoPackageTests.xctest/Contents/MacOS`.
            directories.append(runner.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        return directories
    }
}
