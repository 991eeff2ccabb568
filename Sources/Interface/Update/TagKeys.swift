import Vocabulary

/// Favourites and tags: `*` stars the selected memo (or takes its star away), `#` opens the
/// tags prompt, and `u` takes either back. Part of `reduce`.
///
/// The table shows the change at once; the runner stores it (`Effect.setMemoTags`) and reads
/// the library again.
enum TagKeys {
    /// `*`: stars the selected memo, or takes its star away.
    static func toggleStar(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedMemo else { return KeyHandling.nothing("No memo to star.", &state) }
        let starred = !memo.isStarred
        state.say((starred ? "Starred" : "Took the star from") + " “\(memo.title)”. Press u to undo.")
        return store(memo, tags: memo.tags, starred: starred, &state)
    }

    /// `#`: the tags prompt for the selected memo, holding its tags.
    static func open(_ state: inout AppState) -> [Effect] {
        guard let memo = state.selectedMemo else { return KeyHandling.nothing("No memo to tag.", &state) }
        state.mode = .tagging(id: memo.id, field: TextField(MemoTag.joined(memo.tags)))
        state.promptProblem = nil
        return []
    }

    /// The tags prompt's keys: ⏎ applies `+tag -tag` or makes the typed list the memo's tags
    /// (an empty list takes them all away); a refused tag keeps the prompt open, saying why.
    static func prompt(_ key: Key, id: Int64, _ field: inout TextField, _ state: inout AppState) -> [Effect] {
        let words = { (text: String) in text.split(separator: " ").map(String.init) }
        return TextPrompt.handle(
            key, &field, &state, reopen: { .tagging(id: id, field: $0) },
            problem: { text in
                do throws(MemoTag.ChangeProblem) {
                    _ = try MemoTag.change(words(text))
                    return nil
                } catch {
                    return error.description.prefix(1).uppercased() + error.description.dropFirst() + "."
                }
            },
            submit: { text, state in
                guard let memo = state.memos.first(where: { $0.id == id }) else {
                    state.say("That memo is no longer in the library.")
                    return []
                }
                let typed = words(text)
                let change = (try? MemoTag.change(typed)) ?? MemoTag.Change()
                let tags = typed.isEmpty ? [] : change.applied(to: memo.tags)
                guard tags != memo.tags else { return [] }
                state.say(
                    (tags.isEmpty ? "“\(memo.title)” has no tags now" : "Tagged “\(memo.title)”: \(MemoTag.joined(tags))")
                        + ". Press u to undo.")
                return store(memo, tags: tags, starred: memo.isStarred, &state)
            })
    }

    /// `u` after `*` or `#`: the memo's tags and star back as they were.
    static func undo(id: Int64, title: String, tags: [String], starred: Bool, _ state: inout AppState) -> [Effect] {
        guard let index = state.memos.firstIndex(where: { $0.id == id }) else {
            state.fail("“\(title)” was deleted or purged elsewhere since; not undone.")
            return []
        }
        state.memos[index].tags = tags
        state.memos[index].isStarred = starred
        state.selectMemo(id: id)
        state.say("Tags and star of “\(title)” back as they were.")
        return [.setMemoTags(id: id, tags: tags, starred: starred)]
    }

    /// Shows the change at once, remembers how it was for `u`, and asks the runner to store it.
    private static func store(_ memo: MemoRow, tags: [String], starred: Bool, _ state: inout AppState) -> [Effect] {
        state.undoStack.append(.retagged(id: memo.id, title: memo.title, previousTags: memo.tags, previousStarred: memo.isStarred))
        if let index = state.memos.firstIndex(where: { $0.id == memo.id }) {
            state.memos[index].tags = tags
            state.memos[index].isStarred = starred
        }
        return [.setMemoTags(id: memo.id, tags: tags, starred: starred)]
    }
}
