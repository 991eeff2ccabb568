import Foundation
import Vocabulary
import SoundFiles

extension MemoLibrary {
    /// Moves memo `id` to Recently Deleted (its file into the trash folder), as of `date`.
    ///
    /// - Throws: `.notAllowed` for a memo being recorded or already deleted.
    @discardableResult
    public func delete(id: Int64, at date: Date) throws(MemoLibraryError) -> Memo {
        try write { () throws(MemoLibraryError) -> Memo in
            try moveToRecentlyDeleted(try existing(id), at: date, because: .deleted)
        }
    }

    /// Why a memo still `recording` cannot be changed: it is being recorded, or its recording
    /// ended and waits to be finished (a killed recorder's, or one the full disk left unencoded).
    func recordingReason(_ memo: Memo) -> String {
        let lockPath = lockPath(forRelativePath: relative(memo))
        let existed = FileSystem.exists(lockPath)
        guard SoundFileRecovery.needsEncoding(path: memo.path),
            case .success(let lock) = FileSystem.lockFile(lockPath, wait: false)
        else { return "it is being recorded" }
        FileSystem.unlock(lock)
        if !existed { _ = FileSystem.remove(lockPath) }
        return "its recording is kept whole but not encoded yet; `voicememo recover` finishes it once there is room"
    }

    /// `delete(id:at:)`'s work, inside a transaction the caller holds; an edit and its undo give
    /// their own `reason`.
    func moveToRecentlyDeleted(_ memo: Memo, at date: Date, because reason: DeletionReason) throws(MemoLibraryError) -> Memo {
        let id = memo.id
        guard memo.deletedAt == nil else { throw .notAllowed(memo: memo, reason: "it is already in Recently Deleted") }
        guard memo.state != .recording else { throw .notAllowed(memo: memo, reason: recordingReason(memo)) }
        let name = String(relative(memo).split(separator: "/").last ?? "")
        let destination = try freeRelativePath(for: name, in: Self.trashFolderName + "/")
        try indexCall { () throws(SQLiteError) in try index.setLocation(id: id, relativePath: destination, deleted: (date, reason)) }
        if FileSystem.exists(memo.path) {
            _ = FileSystem.createDirectory(trashFolder)
            try move(memo.path, to: absolute(destination))
        }
        return try existing(id)
    }

    /// Brings memo `id` back from Recently Deleted.
    ///
    /// If its name was taken meanwhile (a copy of its file put back by hand, which the library
    /// then adopted as a memo of its own), both are kept: the restored memo gets a new name
    /// (`…-2.flac`).
    @discardableResult
    public func restore(id: Int64) throws(MemoLibraryError) -> Memo {
        try write { () throws(MemoLibraryError) -> Memo in try bringBack(try existing(id)) }
    }

    /// `restore(id:)`'s work, inside a transaction the caller holds.
    func bringBack(_ memo: Memo) throws(MemoLibraryError) -> Memo {
        let id = memo.id
        guard memo.deletedAt != nil else { throw .notAllowed(memo: memo, reason: "it is not in Recently Deleted") }
        let name = try freeRelativePath(for: String(relative(memo).split(separator: "/").last ?? ""), in: "")
        try indexCall { () throws(SQLiteError) in try index.setLocation(id: id, relativePath: name, deleted: nil) }
        if FileSystem.exists(memo.path) {
            try move(memo.path, to: absolute(name))
        }
        return try existing(id)
    }

    /// Deletes memo `id`, which must be in Recently Deleted, for good: its row and its file.
    public func purge(id: Int64) throws(MemoLibraryError) {
        try write { () throws(MemoLibraryError) in
            let memo = try existing(id)
            guard memo.deletedAt != nil else {
                throw .notAllowed(memo: memo, reason: "only memos in Recently Deleted can be purged; delete it first")
            }
            try indexCall { () throws(SQLiteError) in try index.remove(id: id) }
            let code = FileSystem.remove(memo.path)
            if code != 0 { throw .file(path: memo.path, reason: FileSystem.describe(code), osError: code) }
        }
    }

    /// Purges everything in Recently Deleted; returns the ids purged.
    @discardableResult
    public func purgeAll() throws(MemoLibraryError) -> [Int64] {
        guard !isReadOnly else { throw readOnlyRefusal }
        return try purgeDeleted(before: nil)
    }

    /// Purges memos deleted more than 30 days before `now` (opening the library does this too).
    @discardableResult
    public func purgeExpired(now: Date) throws(MemoLibraryError) -> [Int64] {
        guard !isReadOnly else { throw readOnlyRefusal }
        return try purgeDeleted(before: now.addingTimeInterval(-Self.recentlyDeletedLifetime))
    }

    // MARK: Helpers

    /// The memo with `id`, read inside the current transaction.
    func existing(_ id: Int64) throws(MemoLibraryError) -> Memo {
        guard let memo = try indexCall({ () throws(SQLiteError) in try index.memo(id: id) }) else {
            throw .noMemoWithID(String(id), inRecentlyDeleted: false, onTheOtherSide: false)
        }
        return memo
    }

    /// `folder` + `name` when neither a file nor a memo has that path, else the first free one of
    /// `stem-2.ext`, `stem-3.ext`, …
    func freeRelativePath(for name: String, in folder: String) throws(MemoLibraryError) -> String {
        let stem = MemoFileName.stem(of: name)
        let suffix = String(name.dropFirst(stem.count))
        for number in 1...10_000 {
            let candidate = folder + (number == 1 ? name : "\(stem)-\(number)\(suffix)")
            let taken = try indexCall { () throws(SQLiteError) in try index.contains(relativePath: candidate) }
            if !taken, !FileSystem.exists(absolute(candidate)) { return candidate }
        }
        throw .file(path: absolute(folder + name), reason: "no free name is left beside it")
    }

    /// Renames a file without replacing anything at `destination`.
    func move(_ source: String, to destination: String) throws(MemoLibraryError) {
        let code = FileSystem.moveWithoutReplacing(source, to: destination)
        if code != 0 {
            throw .file(path: source, reason: "cannot move it to \(destination): \(FileSystem.describe(code))", osError: code)
        }
    }
}
