import Foundation
import MemoLibrary
import SoundFiles

/// What the app needs from the memo library. The SQLite library replaces the interim
/// `FolderMemoStore` behind this protocol (one file: `AppRunner.makeStore`).
protocol MemoStore: AnyObject {
    /// The library's memos, newest first, leaving out the file at `excludedPath` (the
    /// recording in progress).
    func memos(excluding excludedPath: String?) throws -> [Memo]
    /// Recently Deleted, most recently deleted first.
    func deletedMemos() throws -> [Memo]
    /// Where a new recording in `format` started at `created` is written.
    func pathForNewRecording(format: FileFormat, created: Date) -> String
    /// Adopts a finished recording as a memo.
    func addRecording(at path: String, title: String, created: Date) throws -> Memo
    func rename(_ id: Int64, to title: String) throws
    /// Moves to Recently Deleted.
    func delete(_ id: Int64) throws
    /// Brings back from Recently Deleted.
    func restore(_ id: Int64) throws
    /// Removes for good.
    func purge(_ id: Int64) throws
}

/// Why a library operation failed, in words for the status line.
struct MemoStoreError: Error, CustomStringConvertible {
    let description: String
}

/// The library folder: `$VOICEMEMO_HOME`, else `$XDG_DATA_HOME/voicememo`, else
/// `~/.local/share/voicememo`.
enum LibraryLocation {
    static func directory(environment: [String: String]) -> String {
        if let home = environment["VOICEMEMO_HOME"], !home.isEmpty { return home }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/voicememo" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/voicememo"
    }
}
