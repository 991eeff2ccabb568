import Foundation

/// Writes a file by writing a temporary sibling and renaming it into place, so that whoever
/// looks at the path sees either the old file or the complete new one, never a partial file.
///
/// The temporary file is hidden (`.name.<purpose>-<pid>.ext`: same folder, so the rename is
/// atomic; same extension, so libsndfile sees the format it names), is flushed with `fsync`
/// before the rename, and is removed if anything fails. If the process dies before the rename the
/// original is untouched, and a leftover hidden file is never adopted by the library.
///
/// Two steps, so that a caller can prepare the (slow) new file without holding a lock and put it
/// in place (fast) under one: `prepare(_:)`, then `commit(replacing:)` or `discard()`.
struct AtomicReplacement {
    /// The file to create or replace.
    let path: String
    /// Names the temporary file, e.g. `retag`, `export`.
    let purpose: String

    /// Where the new content is written first.
    var temporaryPath: String {
        let url = URL(fileURLWithPath: path)
        let pathExtension = url.pathExtension
        let name = ".\(url.lastPathComponent).\(purpose)-\(FileSystem.processID)"
            + (pathExtension.isEmpty ? "" : "." + pathExtension)
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The process id in a temporary file's name made for `purpose` (`.memo.wav.retag-2925.wav`
    /// gives 2925), or `nil` when `name` is not one.
    static func ownerProcessID(ofTemporaryName name: String, purpose: String) -> Int32? {
        guard name.hasPrefix("."), let marker = name.range(of: ".\(purpose)-", options: .backwards) else { return nil }
        let digits = name[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
        let rest = name[marker.upperBound...].dropFirst(digits.count)
        guard !digits.isEmpty, rest.isEmpty || (rest.hasPrefix(".") && !rest.dropFirst().contains(".")) else { return nil }
        return Int32(digits)
    }

    /// Runs `write` on the temporary path and flushes the result to the disk.
    ///
    /// - Throws: what `write` throws, or `.file` when flushing fails; the temporary file is
    ///   removed, and the error names `path`, never the hidden temporary name (`naming(_:)`).
    func prepare(_ write: (String) throws(MemoLibraryError) -> Void) throws(MemoLibraryError) {
        let temporary = temporaryPath
        _ = FileSystem.remove(temporary)
        do throws(MemoLibraryError) {
            try write(temporary)
            let synced = FileSystem.synchronize(temporary)
            if synced != 0 {
                throw MemoLibraryError.file(
                    path: temporary, reason: "cannot flush it to the disk: " + FileSystem.describe(synced), osError: synced)
            }
        } catch {
            discard()
            throw naming(error)
        }
    }

    /// `error` with `path` where it named the temporary file or a file beside it made from that
    /// name (a lossy writer's `..name.export-PID.mp3.partial.json`): a person never sees those.
    func naming(_ error: MemoLibraryError) -> MemoLibraryError {
        let hidden = URL(fileURLWithPath: temporaryPath).lastPathComponent
        func named(_ other: String) -> String { other.contains(hidden) ? path : other }
        switch error {
        case .file(let other, let reason, let code): return .file(path: named(other), reason: reason, osError: code)
        case .sound(var cause):
            cause.path = named(cause.path)
            return .sound(cause)
        case .editStopped(let memo, var cause):
            cause.path = named(cause.path)
            return .editStopped(memo: memo, cause: cause)
        default: return error
        }
    }

    /// Renames the prepared file to `path` and flushes the folder.
    ///
    /// - Parameter replacing: whether an existing file at `path` may be replaced; if not and one
    ///   has appeared, it is kept and the prepared file removed.
    func commit(replacing: Bool) throws(MemoLibraryError) {
        let temporary = temporaryPath
        let moved = replacing ? FileSystem.move(temporary, to: path) : FileSystem.moveWithoutReplacing(temporary, to: path)
        if moved != 0 {
            discard()
            if moved == EEXIST { throw .destinationExists(path: path) }
            throw .file(path: path, reason: "cannot put the new file in place: " + FileSystem.describe(moved), osError: moved)
        }
        _ = FileSystem.synchronizeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// Removes the prepared file.
    func discard() {
        _ = FileSystem.remove(temporaryPath)
    }

    /// `prepare(_:)` then `commit(replacing:)`.
    func perform(replacing: Bool, _ write: (String) throws(MemoLibraryError) -> Void) throws(MemoLibraryError) {
        try prepare(write)
        try commit(replacing: replacing)
    }
}
