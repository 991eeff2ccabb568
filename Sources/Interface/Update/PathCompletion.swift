/// What Tab does to a typed path with the names that complete it, as a shell does: pure, the
/// names come from the runner.
enum PathCompletion {
    /// `typed` extended by what every match shares (one match: the match itself).
    static func extended(_ typed: String, by matches: [String]) -> String {
        guard var shared = matches.first else { return typed }
        for match in matches.dropFirst() {
            shared = String(zip(shared, match).prefix { $0 == $1 }.map(\.0))
        }
        return shared.count > typed.count && shared.hasPrefix(typed) ? shared : typed
    }

    /// What is said above the prompt: nothing for one match, the names for several (at most
    /// eight, then how many more), that nothing matches for none.
    static func listing(_ matches: [String], typed: String) -> String? {
        if matches.count == 1 { return nil }
        let name = typed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? typed
        if matches.isEmpty {
            return name.isEmpty ? "Nothing in that folder." : "Nothing there starts with “\(name)”."
        }
        let names = matches.map { match -> String in
            let trimmed = match.hasSuffix("/") ? String(match.dropLast()) : match
            let last = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
            return last + (match.hasSuffix("/") ? "/" : "")
        }
        let shown = names.prefix(8).joined(separator: "  ")
        return "\(matches.count) matches: \(shown)" + (names.count > 8 ? "  … \(names.count - 8) more" : "")
    }
}
