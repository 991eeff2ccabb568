import Vocabulary
import SoundFiles

extension MemoLibrary {
    /// Changes memo `id`'s tags as `change` says (`MemoTag.change`), in the index and in the
    /// file's comment (`MemoComment`), the way `rename(id:to:)` writes a title.
    ///
    /// - Returns: the memo as it is now (unchanged when the change makes no difference).
    /// - Throws: `.invalidTag`, `.notFound`, `.readOnly`, `.busy`, `.file`, `.sound`.
    @discardableResult
    public func changeTags(id: Int64, _ change: MemoTag.Change) throws(MemoLibraryError) -> Memo {
        try retag(id: id) { (change.applied(to: $0.tags), $0.isStarred) }
    }

    /// Stars memo `id` (a favourite) or takes its star away, in the index and in its file's comment.
    ///
    /// - Throws: `.notFound`, `.readOnly`, `.busy`, `.file`, `.sound`.
    @discardableResult
    public func setStarred(id: Int64, _ starred: Bool) throws(MemoLibraryError) -> Memo {
        try retag(id: id) { ($0.tags, starred) }
    }

    /// Writes memo `id`'s tags and star, as the index has them, into its file's comment (a
    /// memo tagged while it was recorded, whose recorder wrote the comment before).
    func storeTagsInFile(id: Int64) throws(MemoLibraryError) -> Memo {
        try retag(id: id, evenIfUnchanged: true) { ($0.tags, $0.isStarred) }
    }

    /// Whether a memo's tags and star are written into its file's comment (else only the index
    /// has them): where its title is (`titleIsWrittenToFile`), but for MP3, whose ID3v1
    /// comment has room for the memo's id only.
    public func tagsAreWrittenToFile(_ memo: Memo) -> Bool {
        guard titleIsWrittenToFile(memo), let method = TitleRewrite.method(format: memo.format, encoding: memo.encoding) else {
            return false
        }
        return TitleRewrite.writesComment(method)
    }

    /// Stores the tags and star `update` makes of the memo as it is, as `rename(id:to:)` stores
    /// a title: a WAV's comment changed in place, any other file copied with its new comment
    /// and renamed over it under the index's write lock; tried again if the memo changed meanwhile.
    private func retag(
        id: Int64, evenIfUnchanged: Bool = false, _ update: (Memo) -> (tags: [String], starred: Bool)
    ) throws(MemoLibraryError) -> Memo {
        guard !isReadOnly else { throw readOnlyRefusal }
        for _ in 0..<3 {
            let before = try existing(id)
            let wanted = update(before)
            let tags: [String]
            do {
                tags = try MemoTag.accepted(wanted.tags)
            } catch {
                throw .invalidTag(error)
            }
            if !evenIfUnchanged, tags == before.tags, wanted.starred == before.isStarred { return before }
            let comment = fileComment(of: before, tags: tags, starred: wanted.starred)
            let inPlace = comment != nil && before.format == .wav && TitleRewrite.canRetitleInPlace(before.path)
            let replacement =
                comment == nil || inPlace ? nil : try prepareRetaggedFile(of: before, title: before.title, comment: comment)
            let changed = try write { () throws(MemoLibraryError) -> Memo? in
                let memo = try existing(id)
                guard memo.path == before.path, memo.state == before.state, memo.size == before.size,
                    memo.title == before.title, memo.tags == before.tags, memo.isStarred == before.isStarred
                else { return nil }
                try indexCall { () throws(SQLiteError) in try index.setTags(id: id, tags, starred: wanted.starred) }
                if inPlace, let comment {
                    guard try retitleInPlace(memo, title: memo.title, comment: comment) else { return nil }
                } else if let replacement {
                    try commit(replacement, for: memo)
                }
                return try existing(id)
            }
            if let changed { return changed }
            replacement?.discard()
        }
        throw .busy(folder: folder)
    }

    /// The comment `memo`'s file is to carry with `tags` and `starred`: its comment as it is,
    /// with our lines changed; `nil` when the file does not get them (`tagsAreWrittenToFile`)
    /// or cannot be read.
    private func fileComment(of memo: Memo, tags: [String], starred: Bool) -> String? {
        guard tagsAreWrittenToFile(memo), FileSystem.exists(memo.path),
            let reader = try? SoundFileReader(path: memo.path)
        else { return nil }
        var comment = MemoComment(parsing: reader.metadata.comment)
        reader.close()
        comment.tags = tags
        comment.isStarred = starred
        return comment.text
    }
}
