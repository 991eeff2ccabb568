import Foundation
import SoundFiles
import MemoLibrary

/// A fresh library folder under a temporary directory, removed afterwards.
public final class LibraryFixture {
    public let root: URL
    public var folder: String { root.appendingPathComponent("library").path }
    /// A fixed clock: 2026-11-29 14:03:12 UTC.
    public static let start = Date(timeIntervalSince1970: 1_795_960_992)
    public static let utc = TimeZone(identifier: "UTC") ?? .current

    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("memolibrary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    public func open(now: Date = start, busyTimeout: Duration = .seconds(5)) throws -> MemoLibrary {
        try MemoLibrary(folder: folder, now: now, timeZone: Self.utc, busyTimeout: busyTimeout)
    }

    /// Records `seconds` of a tone into a new memo, as `voicememo record` does.
    @discardableResult
    public func record(
        into library: MemoLibrary, title: String? = nil, format: FileFormat = .wav, seconds: Double = 0.25,
        at date: Date = start
    ) throws -> Memo {
        let settings = RecordingSettings(format: format, sampleRate: 48000, channels: 1)
        let recording = try library.beginRecording(title: title, settings: settings, at: date)
        try Self.writeTone(to: recording.memo.path, settings: settings, metadata: recording.metadata, seconds: seconds)
        return try library.finishRecording(recording, peakDB: -6)
    }

    /// Writes a 440 Hz tone at −6 dBFS.
    public static func writeTone(to path: String, settings: RecordingSettings, metadata: SoundFileMetadata, seconds: Double) throws {
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: metadata)
        let frames = Int(seconds * Double(settings.sampleRate))
        var samples = [Float](repeating: 0, count: frames * settings.channels)
        for index in samples.indices {
            samples[index] = 0.5 * Float(sin(2 * Double.pi * 440 * Double(index / settings.channels) / Double(settings.sampleRate)))
        }
        try samples.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            try writer.write(base, frames: frames, sampleFormat: .float32)
        }
        try writer.close()
    }

    /// The names of everything under the fixture's root, recursively (to prove nothing escapes the library).
    public func allPaths() -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var paths = Set<String>()
        while let next = enumerator?.nextObject() as? String {
            paths.insert(next)
        }
        return paths
    }
}
