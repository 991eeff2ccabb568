import Vocabulary

/// The prompts that take one typed value (`E`'s path, `o`'s URL). Part of `reduce`.
///
/// Enter takes the value without the spaces around it: a `problem` with it keeps the prompt
/// open, said above it (`AppState.promptProblem`), until the next key; otherwise the prompt
/// closes and `submit` goes ahead with it. Esc closes the prompt; any other key edits the
/// field, and `reopen` puts the edited field back in its mode.
enum TextPrompt {
    static func handle(
        _ key: Key, _ field: inout TextField, _ state: inout AppState, reopen: (TextField) -> Mode,
        problem: (String) -> String?, submit: (String, inout AppState) -> [Effect]
    ) -> [Effect] {
        switch key {
        case .enter:
            let value = field.text.trimmingWhiteSpace
            if let problem = problem(value) {
                state.promptProblem = problem
                return []
            }
            state.mode = .browsing
            state.promptProblem = nil
            return submit(value, &state)
        case .escape:
            state.mode = .browsing
            state.promptProblem = nil
        default:
            field.apply(key)
            state.promptProblem = nil
            state.mode = reopen(field)
        }
        return []
    }
}
