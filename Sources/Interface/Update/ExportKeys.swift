import MemoRules
import TerminalText

/// `E`: the export prompt for the selected memo. It opens with a path in
/// `AppState.exportFolder` named after the title, in the memo's own format; the name's
/// extension chooses the format (`.flac`, `.wav`, …), as `voicememo export MEMO PATH` does.
/// Enter asks the runner to write it (`Effect.exportMemo`); an existing file is refused there
/// and the memo is never changed.
enum ExportKeys {
    static func open(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedMemo else {
            state.say("No memo to export.")
            return []
        }
        let path = defaultPath(for: memo, in: state.exportFolder)
        state.mode = .exporting(id: memo.id, field: TextField(path, maximumLength: 4096))
        state.promptProblem = nil
        return []
    }

    static func prompt(_ key: Key, id: Int64, _ field: inout TextField, _ state: inout AppState) -> [Effect] {
        TextPrompt.handle(key, &field, &state, reopen: { .exporting(id: id, field: $0) }, problem: problem(with:)) { path, state in
            guard state.memos.contains(where: { $0.id == id }) else {
                state.fail("That memo is no longer in the library: nothing was exported.")
                return []
            }
            return [.exportMemo(id: id, path: path)]
        }
    }

    /// Why `path` cannot be written, in words for above the prompt; `nil` when it may be.
    static func problem(with path: String) -> String? {
        if path.isEmpty { return "Type the path of the file to write, or Esc to cancel." }
        if path.hasSuffix("/") { return "That is a folder: end the path with a file name, e.g. …/memo.wav." }
        return nil
    }

    /// `folder/Title.ext`, the memo's own extension (its file name's), the title made a file name.
    static func defaultPath(for memo: MemoRow, in folder: String) -> String {
        let name = memo.fileName
        let fileExtension = name.lastIndex(of: ".").flatMap { dot in
            dot == name.startIndex ? nil : String(name[name.index(after: dot)...])
        } ?? "wav"
        let base = folder.isEmpty ? "" : folder.hasSuffix("/") ? folder : folder + "/"
        return base + fileName(for: memo.title) + "." + fileExtension
    }

    /// A title as one file name (`TitleFileName`, the rule `voicememo export MEMO FOLDER/` follows).
    static func fileName(for title: String) -> String {
        TitleFileName.make(from: title)
    }
}
