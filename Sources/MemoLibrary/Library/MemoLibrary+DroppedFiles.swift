import Foundation
import SoundFiles

/// A file found in the library folder and adopted as a memo while the library was open.
public struct AdoptedFile: Sendable, Equatable {
    public var id: Int64
    /// The file's name in the folder.
    public var fileName: String
    /// The memo's title.
    public var title: String
    /// Whether the title came from the file's own tags rather than its name.
    public var titleFromTags: Bool
}

/// What a look at the folder changes: files dropped in become memos, files taken away make
/// their memos missing (the start-up check's reconciliation, without recovery or purge).
extension MemoLibrary {
    /// The modification times of the library folder and of Recently Deleted: they change when
    /// a file is added, removed or renamed in them, by anyone.
    public func folderStamp() -> FolderStamp {
        FolderStamp(folder: FileSystem.modificationStamp(of: folder), trash: FileSystem.modificationStamp(of: trashFolder))
    }

    /// Adopts the audio files that appeared in the folder since the last look and marks the
    /// memos whose files vanished as missing. Adoption decodes each new file (its length,
    /// peak and loudness): call it off any thread that must stay responsive.
    ///
    /// - Returns: the files adopted, and the memos now missing.
    public func lookAtFolder(now: Date) throws(MemoLibraryError) -> (adopted: [AdoptedFile], missing: [Int64]) {
        guard !isReadOnly else { return ([], []) }
        let (adoptedBefore, missingBefore) = (maintenance.adopted.count, maintenance.missing.count)
        try reconcileFiles(now: now)
        var adopted: [AdoptedFile] = []
        for id in maintenance.adopted.dropFirst(adoptedBefore) {
            guard let memo = try memo(id: id) else { continue }
            let fileName = URL(fileURLWithPath: memo.path).lastPathComponent
            adopted.append(AdoptedFile(
                id: id, fileName: fileName, title: memo.title, titleFromTags: memo.title != MemoFileName.stem(of: fileName)))
        }
        return (adopted, Array(maintenance.missing.dropFirst(missingBefore)))
    }
}

/// The library folder's and Recently Deleted's modification times (`MemoLibrary.folderStamp()`).
public struct FolderStamp: Sendable, Equatable {
    public var folder: Int64?
    public var trash: Int64?
}
