import Foundation
import SoundFiles

/// Where the config file lives and how it is read: `$XDG_CONFIG_HOME/voicememo/config`,
/// else `~/.config/voicememo/config`. A missing file is an empty configuration.
enum ConfigurationFile {
    /// The config file's path for `environment`.
    static func path(environment: [String: String]) -> String {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/voicememo/config"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/voicememo/config"
    }

    /// Reads and parses the config file.
    ///
    /// - Throws: `ConfigurationError` when the file exists but cannot be read or parsed.
    static func load(environment: [String: String]) throws(ConfigurationError) -> Configuration {
        let path = path(environment: environment)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return Configuration() }
        if isFolder.boolValue { throw ConfigurationError(path: path, line: 0, problem: "is a folder, not a file") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            // Foundation's own text ("NSCocoaErrorDomain error 256") means nothing to a person.
            let cause = FoundationErrorCode.of(error).map { String(cString: strerror($0)) } ?? "it is not a readable file"
            throw ConfigurationError(path: path, line: 0, problem: "cannot be read (\(cause))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(path: path, line: 0, problem: "is not UTF-8 text")
        }
        return try ConfigurationParser.parse(text, path: path)
    }
}

extension CommandContext {
    /// The config file for this environment, or a usage failure (exit 2) naming the file,
    /// the line and what is allowed.
    func configuration() throws -> Configuration {
        do {
            return try ConfigurationFile.load(environment: environment)
        } catch {
            throw CommandFailure(error.description, exitCode: .usageError)
        }
    }
}
