import Glibc
import Vocabulary
import SoundFiles

/// Why a library operation failed; `description` is the sentence a person reads.
public enum MemoLibraryError: Error, Sendable, CustomStringConvertible {
    /// The index failed in a way not covered below.
    case index(SQLiteError)
    /// Another process held the index's write lock for longer than the busy timeout.
    case busy(folder: String)
    /// The library folder or its index cannot be written; listing still works.
    case readOnly(folder: String)
    /// The library folder cannot be created or opened.
    case folderUnavailable(path: String, reason: String)
    /// No memo matches the reference (an id or a title prefix).
    case notFound(reference: String, inRecentlyDeleted: Bool)
    /// No memo has this id (an all-digit MEMO is only ever an id); `onTheOtherSide`: it is in
    /// the library when Recently Deleted was searched, or the other way round.
    case noMemoWithID(String, inRecentlyDeleted: Bool, onTheOtherSide: Bool)
    /// More than one memo's title starts with the reference.
    case ambiguous(reference: String, candidates: [Memo])
    /// A title was refused.
    case invalidTitle(TitleProblem)
    /// A tag was refused (the rule and its words are `MemoTag`'s, in Vocabulary).
    case invalidTag(MemoTag.Problem)
    /// The memo is in the wrong place or state for the operation (e.g. deleting one being recorded).
    case notAllowed(memo: Memo, reason: String)
    /// A marker was refused: its time or label (`reason`), for this memo.
    case invalidMarker(memo: Memo, reason: String)
    /// A trim, split or silence removal was refused: its range or place (`reason`), for this memo.
    case invalidEdit(memo: Memo, reason: String)
    /// Writing an edit's new audio failed (`cause`: the disk full, a read error); the memo is
    /// as it was.
    case editStopped(memo: Memo, cause: SoundFileError)
    /// A file operation failed: `reason` in words (with `strerror`'s text), `osError` the
    /// `errno` behind it where a system call gave one — decide on that (`isDiskFull`), never
    /// on the words, which follow the locale.
    case file(path: String, reason: String, osError: Int32? = nil)
    /// Export was asked to write where a file already is, without being allowed to replace it.
    case destinationExists(path: String)
    /// Reading, writing or converting audio failed.
    case sound(SoundFileError)
    /// A change made only if the memo still had a title (an undo) was not made: another
    /// process gave it another title since; `memo` is as it is now.
    case titleChangedElsewhere(memo: Memo, expected: String)

    /// Why a title was refused (the rule and its words are `MemoTitle`'s, in Vocabulary).
    public typealias TitleProblem = MemoTitle.Problem

    /// Whether the cause is a full disk or quota (`ENOSPC`, `EDQUOT`), from the error's code
    /// in any locale: a file system call's `errno`, libsndfile's kind, SQLite's `SQLITE_FULL`.
    public var isDiskFull: Bool {
        switch self {
        case .file(_, _, let code?): code == ENOSPC || code == EDQUOT
        case .sound(let error): error.kind == .diskFull
        case .index(let error): error == .full
        default: false
        }
    }

    /// Whether the failure is the caller's wrong input (ambiguous reference, bad title): exit status 2.
    public var isUsageError: Bool {
        switch self {
        case .ambiguous, .invalidTitle, .invalidTag, .invalidMarker, .invalidEdit: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .index(let error):
            // SQLite's own words (its message, table and column names) mean nothing to a person.
            return switch error {
            case .full: "the disk is full: the memo index cannot be written (free some space and try again)"
            case .ioError: "the memo index could not be read or written (a disk input/output error)"
            case .corrupt, .notADatabase:
                "the memo index is damaged; the next start keeps it aside and rebuilds it from the audio files"
            case .constraint: "the memo index refused the change: it clashes with another memo's entry"
            case .permission, .cannotOpen: "the memo index cannot be opened (check the folder's permissions)"
            default: "the memo index failed (SQLite result code \(error.code))"
            }
        case .busy(let folder):
            return "the memo index in \(folder) is locked by another process; try again in a moment"
        case .readOnly(let folder):
            return "the library \(folder) is read-only: memos can be listed, played and exported, but not changed"
        case .folderUnavailable(let path, let reason):
            return "cannot use the library folder \(path): \(reason)"
        case .notFound(let reference, let deleted):
            let place = deleted ? "in Recently Deleted" : "in the library"
            return "no memo \(place) has a title starting with '\(TerminalText.safe(reference))'"
                + (deleted ? " (see 'voicememo list --deleted')" : " (see 'voicememo list')")
        case .noMemoWithID(let digits, let deleted, let elsewhere):
            switch (deleted, elsewhere) {
            case (false, false): return "no memo with id \(digits) (see 'voicememo list'; a title made of digits is reached as title:\(digits))"
            case (true, false): return "no memo with id \(digits) in Recently Deleted (see 'voicememo list --deleted')"
            case (false, true): return "no memo with id \(digits) in the library: it is in Recently Deleted ('voicememo restore \(digits)' brings it back)"
            case (true, true): return "no memo with id \(digits) in Recently Deleted: it is in the library"
            }
        case .ambiguous(let reference, let candidates):
            let lines = candidates.map { "  \($0.id)  \(TerminalText.safe($0.title))" }
            return "'\(TerminalText.safe(reference))' matches \(candidates.count) memos; "
                + "give the id or more of the title:\n" + lines.joined(separator: "\n")
        case .invalidTitle(let problem):
            return problem.description
        case .invalidTag(let problem):
            return problem.description
        case .notAllowed(let memo, let reason):
            return "memo \(memo.id) ('\(TerminalText.safe(memo.title))'): \(reason)"
        case .invalidMarker(let memo, let reason):
            return "cannot mark memo \(memo.id) ('\(TerminalText.safe(memo.title))'): \(reason)"
        case .invalidEdit(let memo, let reason):
            return "cannot edit memo \(memo.id) ('\(TerminalText.safe(memo.title))'): \(reason)"
        case .editStopped(let memo, let cause):
            return "memo \(memo.id) ('\(TerminalText.safe(memo.title))') was not changed: \(Self.editCause(cause))"
        case .file(let path, let reason, _):
            return "\(path): \(reason)"
        case .destinationExists(let path):
            return "\(path) already exists; choose another name, or replace it with --force"
        case .sound(let error):
            return error.description
        case .titleChangedElsewhere(let memo, let expected):
            return "memo \(memo.id) is no longer titled '\(TerminalText.safe(expected))': it was renamed to '\(TerminalText.safe(memo.title))' elsewhere since"
        }
    }
}

extension MemoLibraryError {
    /// Why writing an edit stopped, without the temporary file's name (which a person never sees).
    static func editCause(_ error: SoundFileError) -> String {
        switch error.kind {
        case .diskFull: "the disk is full (\(error.osErrorName ?? "ENOSPC")); free some space and try again"
        case .fileTooLarge: "the file size limit was reached (\(error.osErrorName ?? "EFBIG"))"
        case .formatSizeLimit: error.detail ?? "the new file would pass the 4 GiB its format can hold"
        case .interrupted: "it was stopped before the end"
        case .read, .corrupt, .cannotOpen: error.description
        case .write, .unsupported: "writing the new file failed" + (error.libraryMessage.map { ": \($0)" } ?? "")
        }
    }
}
