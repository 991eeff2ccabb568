import Foundation

extension MemoLibrary {
    /// Moves memo `id` to Recently Deleted (its file into the trash folder), as of `date`.
    ///
    /// - Throws: `.notAllowed` for a memo being recorded or already deleted.
    @discardableResult
    public func delete(id: Int64, at date: Date) throws(MemoLibraryError) -> Memo {
        try write { () throws(MemoLibraryError) -> Memo in
            let memo = try existing(id)
            guard memo.deletedAt == nil else { throw .notAllowed(memo: memo, reason: "it is already in Recently Deleted") }
            guard memo.state != .recording else { throw .notAllowed(memo: memo, reason: "it is being recorded") }
            let name = String(relative(memo).split(separator: "/").last ?? "")
            let destination = Self.trashFolderName + "/" + name
            try indexCall { () throws(SQLiteError) in try index.setLocation(id: id, relativePath: destination, deletedAt: date) }
            if FileSystem.exists(memo.path) {
                _ = FileSystem.createDirectory(trashFolder)
                try move(memo.path, to: absolute(destination))
            }
            return try existing(id)
        }
    }

    /// Brings memo `id` back from Recently Deleted.
    @discardableResult
    public func restore(id: Int64) throws(MemoLibraryError) -> Memo {
        try write { () throws(MemoLibraryError) -> Memo in
            let memo = try existing(id)
            guard memo.deletedAt != nil else { throw .notAllowed(memo: memo, reason: "it is not in Recently Deleted") }
            let name = String(relative(memo).split(separator: "/").last ?? "")
            try indexCall { () throws(SQLiteError) in try index.setLocation(id: id, relativePath: name, deletedAt: nil) }
            if FileSystem.exists(memo.path) {
                try move(memo.path, to: absolute(name))
            }
            return try existing(id)
        }
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
            if code != 0 { throw .file(path: memo.path, reason: FileSystem.describe(code)) }
        }
    }

    /// Purges everything in Recently Deleted; returns the ids purged.
    @discardableResult
    public func purgeAll() throws(MemoLibraryError) -> [Int64] {
        guard !isReadOnly else { throw .readOnly(folder: folder) }
        return try purgeDeleted(before: nil)
    }

    /// Purges memos deleted more than 30 days before `now` (opening the library does this too).
    @discardableResult
    public func purgeExpired(now: Date) throws(MemoLibraryError) -> [Int64] {
        guard !isReadOnly else { throw .readOnly(folder: folder) }
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

    /// Renames a file without replacing anything at `destination`.
    func move(_ source: String, to destination: String) throws(MemoLibraryError) {
        let code = FileSystem.moveWithoutReplacing(source, to: destination)
        if code != 0 {
            throw .file(path: source, reason: "cannot move it to \(destination): \(FileSystem.describe(code))")
        }
    }
}
