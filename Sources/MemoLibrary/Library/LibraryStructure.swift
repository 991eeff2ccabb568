import Foundation
import Vocabulary

/// What must hold of a library folder before anything in it is read, written, moved or
/// deleted: it can be read (else an empty listing would tell a script there are no memos), and
/// the library's own parts — Recently Deleted (`.trash`), the lock folder (`.locks`) and the
/// index with its journal files — are real folders and files inside it, never symbolic links
/// (purging through a `.trash` that points elsewhere deletes files outside the library) nor
/// anything else that only looks like them.
enum LibraryStructure {
    /// The index's files: the database and SQLite's companions.
    static let indexFiles = [MemoIndex.fileName] + ["-wal", "-shm", "-journal"].map { MemoIndex.fileName + $0 }

    /// - Throws: `.folderUnavailable` naming the part at fault and what to do.
    static func check(_ folder: String) throws(MemoLibraryError) {
        guard let stream = opendir(folder) else {
            let code = errno
            throw .folderUnavailable(
                path: folder, reason: "it cannot be read: \(FileSystem.describe(code).lowercased())")
        }
        closedir(stream)
        for name in [MemoLibrary.trashFolderName, MemoLibrary.lockFolderName] {
            try expect(.directory, name, in: folder, what: "a folder")
        }
        for name in indexFiles {
            try expect(.regularFile, name, in: folder, what: "a file")
        }
    }

    private static func expect(_ kind: FileSystem.Kind, _ name: String, in folder: String, what: String)
        throws(MemoLibraryError)
    {
        let path = folder + "/" + name
        let found = FileSystem.kind(of: path)
        guard found != .none, found != kind else { return }
        let described: String
        if case .symbolicLink(let target)? = FileSystem.sharing(of: path) {
            described = "a symbolic link (to \(TerminalText.safe(target)))"
        } else {
            described = "not \(what)"
        }
        throw .folderUnavailable(
            path: folder,
            reason: "its \(name) is \(described); the library keeps it as \(what) of its own and never "
                + "reads, writes or deletes through anything else: move \(path) away and try again")
    }
}
