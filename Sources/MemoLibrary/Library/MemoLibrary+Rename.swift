import Foundation
import Vocabulary
import SoundFiles

extension MemoLibrary {
    /// Gives memo `id` a new title, stored exactly as given, in the index and in the file's tags.
    ///
    /// The files are the truth: an index rebuilt from them must find the new title. A WAV gets
    /// its new title in place (`TitleRewrite.retitleInPlace`: a new INFO list at the end, no
    /// audio copied, crash-safe). Any other file is
    /// copied with the new title beside the original (`TitleRewrite`: no audio is re-encoded
    /// lossily), flushed, and renamed over it under the index's write lock, so an interrupted
    /// rename leaves the original as it was. The copy is made before taking the lock (it takes
    /// time in proportion to the file); if the memo changed meanwhile (deleted, restored,
    /// renamed by another process) it is made again.
    ///
    /// Only the index changes for a memo being recorded (its recorder writes the file; finishing
    /// the recording writes the new title), one whose file is missing or damaged, and one whose
    /// title cannot be written without lossy re-encoding (IMA ADPCM: see `titleIsWrittenToFile`).
    ///
    /// - Parameter expectedTitle: when given, the rename is made only if the memo still has this
    ///   title, checked under the index's write lock (an undo must not replace a title another
    ///   process gave the memo since).
    /// - Throws: `.invalidTitle`, `.notFound`, `.readOnly`, `.busy`, `.file`, `.sound`,
    ///   `.titleChangedElsewhere`.
    @discardableResult
    public func rename(id: Int64, to title: String, ifTitleIs expectedTitle: String? = nil) throws(MemoLibraryError) -> Memo {
        let title = try MemoTitle.acceptedInLibrary(title)
        guard !isReadOnly else { throw readOnlyRefusal }
        for _ in 0..<3 {
            let before = try existing(id)
            if let expectedTitle, before.title != expectedTitle { throw .titleChangedElsewhere(memo: before, expected: expectedTitle) }
            // A WAV's title is changed in place (a few hundred bytes, under the lock); other
            // formats get a copy, made before taking the lock.
            let inPlace = titleIsWrittenToFile(before) && before.format == .wav && TitleRewrite.canRetitleInPlace(before.path)
            let replacement = inPlace ? nil : try prepareRetaggedFile(of: before, title: title)
            let renamed = try write { () throws(MemoLibraryError) -> Memo? in
                let memo = try existing(id)
                if let expectedTitle, memo.title != expectedTitle { throw .titleChangedElsewhere(memo: memo, expected: expectedTitle) }
                guard memo.path == before.path, memo.state == before.state, memo.size == before.size else { return nil }
                try indexCall { () throws(SQLiteError) in try index.setTitle(id: id, title) }
                if inPlace {
                    // Not laid out for it any more (changed meanwhile): try again, by copying.
                    guard try retitleInPlace(memo, title: title) else { return nil }
                } else if let replacement {
                    try commit(replacement, for: memo)
                }
                return try existing(id)
            }
            if let renamed { return renamed }
            replacement?.discard()
        }
        throw .busy(folder: folder)
    }

    /// Whether renaming `memo` writes the new title into its file (else only the index has it).
    public func titleIsWrittenToFile(_ memo: Memo) -> Bool {
        (memo.state == .complete || memo.state == .recovered) && TitleRewrite.method(format: memo.format, encoding: memo.encoding) != nil
            && sharedFileReason(memo) == nil
    }

    /// Why the library does not write into `memo`'s file (tags, markers) although it could:
    /// the file is a symbolic link (a write would change the file it points to, outside the
    /// library, or replace the link with a copy) or has other hard links (a write in place
    /// changes every name's contents). `nil` for a file of its own. Edits still work: they
    /// write new files.
    public func sharedFileReason(_ memo: Memo) -> String? {
        switch FileSystem.sharing(of: memo.path) {
        case .symbolicLink(let target)?:
            "its file is a symbolic link (to \(TerminalText.safe(target))), which the library never writes through"
        case .hardLinks(let names)?:
            "its file has \(names - 1) other hard \(names == 2 ? "link" : "links"), which a write would change too"
        case nil: nil
        }
    }

    // MARK: Helpers

    /// Names the copy a rename prepares beside a memo's file (see `AtomicReplacement`).
    static let retagPurpose = "retag"

    /// A copy of `memo`'s file with `title` (and `comment`, when given) in its tags, ready
    /// beside it; `nil` when the file is not to be rewritten (see `rename(id:to:)`).
    func prepareRetaggedFile(of memo: Memo, title: String, comment: String? = nil) throws(MemoLibraryError) -> AtomicReplacement? {
        guard titleIsWrittenToFile(memo), FileSystem.exists(memo.path) else { return nil }
        let replacement = AtomicReplacement(path: memo.path, purpose: Self.retagPurpose)
        try replacement.prepare { temporary throws(MemoLibraryError) in
            do throws(SoundFileError) {
                try TitleRewrite.copy(memo.path, to: temporary, title: title, comment: comment)
            } catch {
                throw .sound(error)
            }
            // A decoded-and-encoded copy has no markers: the index's go into it.
            copyMarkers(of: memo, into: temporary, format: memo.format)
        }
        do {
            try willReplaceRetaggedFile?(memo.path, replacement.temporaryPath)
        } catch {
            replacement.discard()
            throw error
        }
        return replacement
    }

    /// Writes `title` (and `comment`, when given) into `memo`'s WAV file in place and stores
    /// its new size (inside a transaction).
    func retitleInPlace(_ memo: Memo, title: String, comment: String? = nil) throws(MemoLibraryError) -> Bool {
        let changed: Bool
        do {
            changed = try TitleRewrite.retitleInPlace(memo.path, title: title, comment: comment)
        } catch {
            throw .sound(error)
        }
        if changed, let size = FileSystem.size(of: memo.path) {
            try indexCall { () throws(SQLiteError) in try index.setSize(id: memo.id, size) }
        }
        return changed
    }

    /// Renames a prepared copy over `memo`'s file and stores its new size (inside a transaction).
    func commit(_ replacement: AtomicReplacement, for memo: Memo) throws(MemoLibraryError) {
        try replacement.commit(replacing: true)
        if let size = FileSystem.size(of: memo.path) {
            try indexCall { () throws(SQLiteError) in try index.setSize(id: memo.id, size) }
        }
    }
}
