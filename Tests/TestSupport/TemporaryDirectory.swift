import Foundation

/// The tests' one temporary folder: a fresh directory under the system's temporary directory
/// (or `base`), removed with everything in it when the value is released.
public final class TemporaryDirectory {
    /// The directory.
    public let url: URL
    /// The directory's path.
    public var path: String { url.path }

    /// Creates the directory, named `prefix` plus a random suffix, in `base` (the system's
    /// temporary directory when `nil`).
    public init(prefix: String = "voicememo-test", in base: URL? = nil) throws {
        url = (base ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory (not created).
    public func path(_ components: String...) -> URL {
        components.reduce(url) { $0.appendingPathComponent($1) }
    }

    /// The path of `name` inside the directory (not created).
    public func file(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The names in the directory.
    public var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
