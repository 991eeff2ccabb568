/// How closely opening a library compares the files in its folder with its index.
///
/// What is always checked, because a wrong answer would lose or hide a memo: which files exist
/// (one `readdir` of the folder and of Recently Deleted). That finds every file the index does not
/// know (adopted), every row whose file vanished (shown as missing) and every missing file that
/// came back (re-read). Recordings whose process died are recovered either way.
///
/// What can wait: whether a file the index knows changed size behind the library's back (edited
/// or truncated by another program). Seeing that takes one `stat` per file — ~16 ms at 10 000
/// memos, a sixth of `list --json`'s budget — and such a file is still listed, only with its old
/// length and size until a full check re-reads it.
public enum FileCheck: Sendable, Hashable {
    /// Names and sizes: a known file whose size changed is re-read (its length, or damaged).
    /// For commands that change the library, and for the app.
    case namesAndSizes
    /// Names only: new, vanished and returned files, but not changed sizes. For `list`, which
    /// must start fast and changes nothing; the next full check catches up.
    case names
}
