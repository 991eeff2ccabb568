import MemoLibrary
import Vocabulary

/// Title checks done before the library is even opened, so a bad title is a usage error (exit 2).
enum MemoTitleCheck {
    static func check(_ title: String) throws {
        do {
            _ = try MemoTitle.accepted(title)
        } catch {
            throw LibraryAccess.failure(.invalidTitle(error))
        }
    }
}
