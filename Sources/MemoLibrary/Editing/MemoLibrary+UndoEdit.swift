import Foundation
import Vocabulary

extension MemoLibrary {
    /// Undoes an edit (`EditResult`): the original back from Recently Deleted, the memos the
    /// edit made moved there (as `.undone` that edit), in one transaction. Nothing is lost either way: the
    /// made memos stay in Recently Deleted until purged. A made memo already deleted or purged
    /// is left as it is.
    ///
    /// - Throws: `.notAllowed` when the original is no longer in Recently Deleted (restored
    ///   elsewhere since) or a made memo is being recorded; `.noMemoWithID` when the original
    ///   was purged; file and index errors (then nothing changed).
    @discardableResult
    public func undoEdit(originalID: Int64, madeIDs: [Int64], at date: Date) throws(MemoLibraryError) -> Memo {
        try write { () throws(MemoLibraryError) -> Memo in
            let original = try existing(originalID)
            guard original.deletedAt != nil else {
                throw .notAllowed(memo: original, reason: "it is not in Recently Deleted: it was restored elsewhere since")
            }
            // The made memos say which edit was undone: the one the original says replaced it.
            let undoneReason: DeletionReason =
                if case .replaced(let edit)? = original.deletionReason { .undone(edit) } else { .deleted }
            for id in madeIDs {
                guard let made = try indexCall({ () throws(SQLiteError) in try index.memo(id: id) }), made.deletedAt == nil else {
                    continue
                }
                _ = try moveToRecentlyDeleted(made, at: date, because: undoneReason)
            }
            return try bringBack(original)
        }
    }
}
