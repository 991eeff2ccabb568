import Metering
import Vocabulary

/// `E`: the export prompt for the selected memo. It opens with a path in
/// `AppState.exportFolder` named after the title, in the memo's own format; the name's
/// extension chooses the format (`.flac`, `.wav`, …), as `voicememo export MEMO PATH` does.
/// The name part is selected, so typing replaces it and keeps the folder and the extension;
/// Ctrl-U clears the line. `Tab` completes the path as a shell does (the names in its folder,
/// listed by the runner); Ctrl-L turns the podcast loudness (−16 LUFS, −1 dBTP, as
/// `export --loudness -16`) on and off, said in the prompt's label and kept for the next one.
/// Enter asks the runner to write it (`Effect.exportMemo`); an existing file is refused there
/// and the memo is never changed.
enum ExportKeys {
    /// The target Ctrl-L offers.
    static let podcast = LoudnessTarget.podcast

    /// "Export to: ", or "Export at -16 LUFS to: " with the podcast loudness on.
    static func label(_ state: AppState) -> String {
        state.exportsAtPodcastLoudness ? "Export at \(LoudnessTarget.figure(podcast.integrated)) LUFS to: " : "Export to: "
    }

    static func open(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedMemo else {
            state.say("No memo to export.")
            return []
        }
        let path = defaultPath(for: memo, in: state.exportFolder)
        state.mode = .exporting(id: memo.id, field: TextField(path, maximumLength: 4096, selecting: nameRange(in: path)))
        state.promptProblem = nil
        return []
    }

    static func prompt(_ key: Key, id: Int64, _ field: inout TextField, _ state: inout AppState) -> [Effect] {
        if key == .control("l") {
            state.exportsAtPodcastLoudness.toggle()
            state.promptProblem = nil
            return []
        }
        if key == .tab {
            state.promptProblem = nil
            return [.completeExportPath(id: id, typed: field.text)]
        }
        return TextPrompt.handle(key, &field, &state, reopen: { .exporting(id: id, field: $0) }, problem: problem(with:)) { path, state in
            guard state.memos.contains(where: { $0.id == id }) else {
                state.fail("That memo is no longer in the library: nothing was exported.")
                return []
            }
            return [.exportMemo(id: id, path: path, loudness: state.exportsAtPodcastLoudness ? podcast : nil)]
        }
    }

    /// The path typed at the prompt was refused before anything was written: the prompt comes
    /// back with it (the cursor at its end) and the reason above it, so a mistyped folder is
    /// corrected rather than typed again. When something else took the screen meanwhile (a
    /// prompt, a list), or the memo is gone, the reason is said on the status line instead.
    static func reopen(id: Int64, typed: String, failure: AppFailure, _ state: inout AppState) -> [Effect] {
        guard state.mode == .browsing, state.memos.contains(where: { $0.id == id }) else {
            state.fail(failure.message)
            return []
        }
        state.mode = .exporting(id: id, field: TextField(typed, maximumLength: 4096))
        state.promptProblem = failure.message
        return []
    }

    /// The runner's answer to Tab: one match replaces the path (a file's name completed, a
    /// folder's with its `/`); several extend it to what they share and are listed above the
    /// prompt; none says so. An answer to a path typed on since is dropped.
    static func complete(id: Int64, typed: String, matches: [String], _ state: inout AppState) {
        guard case .exporting(let open, let field) = state.mode, open == id, field.text == typed else { return }
        let completed = PathCompletion.extended(typed, by: matches)
        if completed != typed {
            state.mode = .exporting(id: id, field: TextField(completed, maximumLength: field.maximumLength))
        }
        state.promptProblem = PathCompletion.listing(matches, typed: typed)
    }

    /// The characters of the file name without its extension in `path` (`Standup` in
    /// `/home/ana/Standup.flac`): what the prompt opens with selected.
    static func nameRange(in path: String) -> Range<Int> {
        let characters = Array(path)
        let start = (characters.lastIndex(of: "/") ?? -1) + 1
        let dot = characters.lastIndex(of: ".").flatMap { $0 > start ? $0 : nil } ?? characters.count
        return start..<dot
    }

    /// Why `path` cannot be written, in words for above the prompt; `nil` when it may be. A
    /// folder (`~/exports/`) is written into, named after the title, as `voicememo export MEMO
    /// FOLDER/` does (the prompt once refused a path ending in `/`, though it took the same
    /// folder without the slash).
    static func problem(with path: String) -> String? {
        path.isEmpty ? "Type the path of the file to write, or Esc to cancel." : nil
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
