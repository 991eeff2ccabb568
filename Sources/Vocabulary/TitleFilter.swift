/// The one rule for finding a memo by its title from typed text, shared by the app's `/` and
/// `voicememo search`: the title holds the text as typed, case ignored.
public enum TitleFilter {
    public static func matches(title: String, query: String) -> Bool {
        !query.isEmpty && title.lowercased().contains(query.lowercased())
    }
}
