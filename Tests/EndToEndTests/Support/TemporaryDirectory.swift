import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the value is released.
final class TemporaryDirectory {
    /// The directory.
    let url: URL

    /// Creates the directory, named `prefix` plus a random suffix, in `base` (the system's
    /// temporary directory when `nil`).
    init(prefix: String = "voicememo-test", in base: URL? = nil) throws {
        url = (base ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory (not created).
    func path(_ components: String...) -> URL {
        components.reduce(url) { $0.appendingPathComponent($1) }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
