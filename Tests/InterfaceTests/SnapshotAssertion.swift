import Foundation
import Testing

@testable import Interface

/// Compares a rendered Screen's text lines with `Snapshots/NAME.txt`.
///
/// Set `VOICEMEMO_RECORD_SNAPSHOTS=1` to (re)write the files instead; a missing file is
/// written and the test fails, so a new snapshot is always looked at once.
func assertSnapshot(_ screen: Screen, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").appendingPathComponent(name + ".txt")
    let rendered = screen.lines().map { $0 + "|" }.joined(separator: "\n") + "\n"
    let recording = ProcessInfo.processInfo.environment["VOICEMEMO_RECORD_SNAPSHOTS"] == "1"
    guard !recording, let expected = try? String(contentsOf: url, encoding: .utf8) else {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(rendered.utf8).write(to: url)
        if !recording {
            Issue.record("snapshot \(name) did not exist; written to \(url.path): look at it, then run again", sourceLocation: sourceLocation)
        }
        return
    }
    #expect(rendered == expected, "snapshot \(name) differs (VOICEMEMO_RECORD_SNAPSHOTS=1 re-records)", sourceLocation: sourceLocation)
}
