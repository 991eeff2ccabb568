import Foundation
import SoundFiles

/// The hidden files an export writes at its destination before the copy is whole — the copy
/// itself (`.NAME.export-PID.EXT`, see `AtomicReplacement`) and, for a lossy format, its
/// writer's intermediate, recipe and M4A encoding beside it (`TemporarySibling`) — named in
/// one place, so that an interrupted export removes them and the next export to that folder
/// finds those a killed one left.
public enum ExportLeftovers {
    /// What `AtomicReplacement` calls an export's and a label file's copies.
    static let purposes = ["export", "labels"]

    /// Every temporary file an export to `target` (the file written, links resolved) may make.
    public static func temporaries(for target: String) -> [String] {
        purposes.flatMap { purpose -> [String] in
            let copy = AtomicReplacement(path: target, purpose: purpose).temporaryPath
            return [copy] + TemporarySibling.allCases.map { $0.path(beside: copy) }
        }
    }

    /// A file an export left: where it is and how big it was.
    public struct Removed: Sendable, Equatable {
        public let path: String
        public let size: Int64
    }

    /// Removes the export temporaries in `folder` whose process is gone (killed before it could
    /// rename its copy into place or remove it); those of a running export are left to it.
    public static func removeAbandoned(in folder: String) -> [Removed] {
        var removed: [Removed] = []
        for entry in FileSystem.hiddenFiles(in: folder) {
            guard let owner = ownerProcessID(ofTemporaryName: entry.name), !FileSystem.processIsAlive(owner) else { continue }
            let path = (folder == "/" ? "" : folder) + "/" + entry.name
            if FileSystem.remove(path) == 0 { removed.append(Removed(path: path, size: entry.size ?? 0)) }
        }
        return removed
    }

    /// The process that made the export temporary `name`; `nil` for any other file.
    static func ownerProcessID(ofTemporaryName name: String) -> Int32? {
        for purpose in purposes {
            if let owner = MemoLibrary.ownerProcessID(ofTemporaryName: name, purpose: purpose) { return owner }
        }
        return nil
    }
}
