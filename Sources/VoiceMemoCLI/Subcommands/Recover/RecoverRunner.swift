import Platform
import Foundation
import MemoLibrary
import Vocabulary

/// `recover`: opening the library finishes the dead recordings (saying so, with progress,
/// on standard error); this says when there was nothing to do, and fails while a memo
/// still waits for room or the library cannot be written.
enum RecoverRunner {
    static func run(context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        defer { library.close() }
        let maintenance = library.maintenance
        if !maintenance.waitingForRoom.isEmpty { return .failure }
        if !maintenance.pendingRecoveries.isEmpty {
            let count = maintenance.pendingRecoveries.count
            context.console.printErrorMessage(
                "\(count) memo\(count == 1 ? "" : "s") \(count == 1 ? "waits" : "wait") to be recovered, but "
                    + (library.isReadOnly ? "the library cannot be written (\(library.folder))" : "another process is recovering or recording")
            )
            return .failure
        }
        if maintenance.recovered.isEmpty { context.console.printErrorMessage("nothing to recover") }
        return .success
    }
}
