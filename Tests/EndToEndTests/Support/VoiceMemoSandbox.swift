import TestSupport
import Foundation

/// A private world for one end-to-end test: its own library, config and home directories, and
/// a way to run `voicememo` in it.
///
/// The environment is built from scratch, so the tests neither see nor change the user's
/// memos or config:
/// ```
/// let sandbox = try VoiceMemoSandbox()
/// let outcome = try sandbox.run("record", "--source", "tone:1000@-12", "--duration", "1")
/// #expect(outcome.status == 0)
/// ```
final class VoiceMemoSandbox {
    /// The root of everything the test may touch; removed afterwards.
    let directory: TemporaryDirectory
    /// The environment `run` gives the binary; add to it before running.
    var environment: [String: String]

    /// `$VOICEMEMO_HOME`: the library's audio files and index.
    var libraryDirectory: URL { directory.path("library") }
    /// `$XDG_CONFIG_HOME`; the config file is `voicememo/config` inside it.
    var configDirectory: URL { directory.path("config") }

    /// - Parameter base: where the sandbox's folder is made (the system's temporary directory
    ///   when `nil`): a tmpfs for tests that write gigabytes.
    init(in base: URL? = nil) throws {
        directory = try TemporaryDirectory(prefix: "voicememo-e2e", in: base)
        let inherited = ProcessInfo.processInfo.environment
        environment = [
            "HOME": directory.path("home").path,
            "VOICEMEMO_HOME": directory.path("library").path,
            "XDG_DATA_HOME": directory.path("data").path,
            "XDG_CONFIG_HOME": directory.path("config").path,
            // The control socket's folder: a record killed by a test leaves its socket here, not in /tmp.
            "XDG_RUNTIME_DIR": directory.path("run").path,
            "PATH": inherited["PATH"] ?? "/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
        ]
        for name in ["ALSA_CONFIG_PATH", "VOICEMEMO_BIN_DIR"] {
            if let value = inherited[name] { environment[name] = value }
        }
        for name in ["home", "library", "data", "config"] {
            try FileManager.default.createDirectory(at: directory.path(name), withIntermediateDirectories: true)
        }
        try writeConfig("")
    }

    /// Writes the config file (`key = value` lines).
    ///
    /// Unless `text` sets `transcribe` itself, `transcribe = manual` is appended (after the
    /// test's lines, so line numbers in messages stay): the default, `auto`, would make every
    /// `record` and every start of the app transcribe, which only the transcription tests
    /// want (they set `transcribe = auto`, or remove the file with `useBuiltInConfig()`).
    func writeConfig(_ text: String) throws {
        let folder = configDirectory.appendingPathComponent("voicememo", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let setsMode = text.split(separator: "\n").contains { line in
            let key = line.split(separator: "=", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces)
            return key == "transcribe"
        }
        let separator = text.isEmpty || text.hasSuffix("\n") ? "" : "\n"
        try Data((setsMode ? text : text + separator + "transcribe = manual\n").utf8).write(to: folder.appendingPathComponent("config"))
    }

    /// Removes the config file: the built-in defaults (`transcribe = auto` among them) apply.
    func useBuiltInConfig() throws {
        try FileManager.default.removeItem(at: configDirectory.appendingPathComponent("voicememo/config"))
    }

    /// Runs the built `voicememo` with `arguments` in this sandbox.
    func run(
        _ arguments: String..., standardInput: String? = nil, timeout: Duration = .seconds(30)
    ) throws -> ProcessOutcome {
        try run(arguments: arguments, standardInput: standardInput, timeout: timeout)
    }

    /// Runs the built `voicememo` with `arguments` in this sandbox.
    func run(
        arguments: [String], standardInput: String? = nil, timeout: Duration = .seconds(30)
    ) throws -> ProcessOutcome {
        try ProcessRunner.run(
            try VoiceMemoBinary.url(), arguments: arguments, environment: environment,
            standardInput: standardInput, timeout: timeout)
    }
}
