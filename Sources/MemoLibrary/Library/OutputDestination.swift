import Foundation
import Glibc

/// A file a command writes that is not a memo (`export MEMO PATH`, `record --output PATH`), and
/// the rules for writing it.
///
/// - A path where nothing is is written.
/// - An existing regular file is replaced only when asked (`--force`).
/// - Anything else is refused, even when asked: a folder, a device (`/dev/full`), a FIFO, a
///   socket, and any path inside the library folder (the memos, the index, Recently Deleted),
///   which only the library changes.
/// - A symbolic link is followed: the file it points to must pass the same checks, and is the
///   one written (the link stays). A link to nothing is refused.
/// - The folder it goes in must exist: a missing one is named ("the folder /missing/dir does
///   not exist"), before anything is written beside it.
public struct OutputDestination: Sendable, Equatable {
    /// The path as given.
    public let path: String
    /// The file that is written: `path`, or the file its symbolic link points to.
    public let target: String
    /// Whether a regular file is there (and will be replaced).
    public let replacesAFile: Bool
    /// `target` with its folder's links, `.` and `..` resolved: two destinations are the same
    /// file when these are equal.
    public let resolvedFile: String

    /// Checks `path` against the rules above.
    ///
    /// - Parameters:
    ///   - libraryFolder: the memo library's folder (`LibraryLocation.folder`), whether or not it exists.
    ///   - replacing: an existing regular file may be replaced (`--force`).
    /// - Throws: `.destinationExists` for a regular file without `replacing`, `.file` naming what
    ///   is there and why it is refused.
    public static func check(_ path: String, libraryFolder: String?, replacing: Bool) throws(MemoLibraryError)
        -> OutputDestination
    {
        var target = path
        if FileSystem.kind(of: path) == .symbolicLink {
            switch FileSystem.canonicalPath(path) {
            case .success(let resolved): target = resolved
            case .failure(let error):
                throw .file(
                    path: path,
                    reason: "that is a symbolic link to nothing (\(FileSystem.describe(error.code))); give the file's own path")
            }
        }
        let kind = FileSystem.kind(of: target)
        if let refusal = refusal(kind) {
            throw .file(path: path, reason: (target == path ? "" : "the link points to \(target), ") + refusal)
        }
        if let folder = libraryFolder, let inside = insideLibrary(target, folder: folder) {
            throw .file(
                path: path,
                reason: "that is inside the memo library (\(inside)); only the library writes there. "
                    + "Choose a path outside it")
        }
        if kind == .regularFile, let folder = libraryFolder, let shared = libraryFile(sharing: target, folder: folder) {
            throw .file(
                path: path,
                reason: "that file is also \(shared) in the memo library (a hard link to it); writing there would "
                    + "change the library's file, even with --force. Choose another path")
        }
        if let (problem, code) = folderProblem(of: target) {
            throw .file(path: path, reason: problem, osError: code)
        }
        if kind == .regularFile, !replacing {
            throw .destinationExists(path: path)
        }
        return OutputDestination(path: path, target: target, replacesAFile: kind == .regularFile, resolvedFile: resolved(target))
    }

    /// Whether `self` and `other` are one file: the same resolved path, or (both there) the
    /// same inode, as a hard link is.
    public func isSameFile(as other: OutputDestination) -> Bool {
        if resolvedFile == other.resolvedFile { return true }
        guard let mine = FileSystem.identity(of: target), let theirs = FileSystem.identity(of: other.target) else { return false }
        return mine == theirs
    }

    /// The folder `path` names as typed: what comes before its last `/` (`/` for a file at the
    /// root), `.` for a bare name.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Why the folder `target` would be written in cannot take it, and the `errno`; `nil`
    /// when it is a folder.
    static func folderProblem(of target: String) -> (String, Int32)? {
        folderProblem(ofFolder: folder(of: target))
    }

    /// Why `folder` cannot take a file, and the `errno`; `nil` when it is a folder.
    static func folderProblem(ofFolder folder: String) -> (String, Int32)? {
        switch FileSystem.directoryStatus(folder) {
        case 0: return nil
        case ENOENT: return ("the folder \(folder) does not exist", ENOENT)
        case ENOTDIR: return ("\(folder) is not a folder", ENOTDIR)
        case let code: return ("the folder \(folder) cannot be used: \(FileSystem.describe(code))", code)
        }
    }

    /// Why what is there can never be written over, or `nil` (nothing, or a regular file).
    private static func refusal(_ kind: FileSystem.Kind) -> String? {
        let what: String
        switch kind {
        case .none, .regularFile, .symbolicLink: return nil
        case .directory: return "that is a folder; give the name of the file to write"
        case .characterDevice: what = "a character device"
        case .blockDevice: what = "a block device"
        case .fifo: what = "a FIFO (named pipe)"
        case .socket: what = "a socket"
        case .other: what = "not a regular file"
        }
        return "that is \(what), not a file; only a regular file is ever replaced, even with --force"
    }

    /// The library folder, as the user named it, when `target` is in it (at any depth), else `nil`.
    private static func insideLibrary(_ target: String, folder: String) -> String? {
        let library = canonical(folder)
        let file = resolved(target)
        return file == library || file.hasPrefix(library + "/") ? folder : nil
    }

    /// The library's file (a memo's, Recently Deleted's, the index) that `target` is another
    /// hard link to, named as inside the library folder; `nil` when it has no other link, or
    /// none in the library.
    private static func libraryFile(sharing target: String, folder: String) -> String? {
        guard case .hardLinks? = FileSystem.sharing(of: target), let identity = FileSystem.identity(of: target) else {
            return nil
        }
        let trash = folder + "/" + MemoLibrary.trashFolderName
        let candidates = FileSystem.regularFiles(in: folder, sizes: false).map { $0.name }
            + FileSystem.hiddenFiles(in: folder).map { $0.name }
            + FileSystem.regularFiles(in: trash, sizes: false).map { MemoLibrary.trashFolderName + "/" + $0.name }
            + FileSystem.hiddenFiles(in: trash).map { MemoLibrary.trashFolderName + "/" + $0.name }
        return candidates.first { FileSystem.identity(of: folder + "/" + $0) == identity }
    }

    /// `target` with its folder resolved (`canonical`) and its own name kept.
    private static func resolved(_ target: String) -> String {
        let parent = canonical(URL(fileURLWithPath: target).deletingLastPathComponent().path)
        return (parent == "/" ? "" : parent) + "/" + URL(fileURLWithPath: target).lastPathComponent
    }

    /// `path` with links resolved where it exists, else made absolute and standardised.
    private static func canonical(_ path: String) -> String {
        if case .success(let resolved) = FileSystem.canonicalPath(path) { return resolved }
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        return standardized.count > 1 && standardized.hasSuffix("/") ? String(standardized.dropLast()) : standardized
    }
}
