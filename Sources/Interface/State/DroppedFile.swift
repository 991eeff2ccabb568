/// An audio file that appeared in the library folder and became a memo, as the status line
/// names it: its file name, the title it was given, and whether that title came from the
/// file's own tags (a phone's memo, a podcast's MP3) rather than its name.
public struct DroppedFile: Sendable, Equatable {
    public var fileName: String
    public var title: String
    public var titleFromTags: Bool

    public init(fileName: String, title: String, titleFromTags: Bool) {
        self.fileName = fileName
        self.title = title
        self.titleFromTags = titleFromTags
    }

    /// What the status line says about `files`: one file by name and title (saying where a
    /// title that is not the file's name came from), several by count and titles.
    public static func announcement(_ files: [DroppedFile]) -> String {
        guard let first = files.first else { return "" }
        if files.count == 1 {
            if first.titleFromTags {
                return "Added “\(first.fileName)” from the library folder as “\(first.title)”, the title in its tags. Press e to rename it."
            }
            return "Added “\(first.fileName)” from the library folder."
        }
        let titles = files.prefix(3).map { "“\($0.title)”" }.joined(separator: ", ") + (files.count > 3 ? ", …" : "")
        return "Added \(files.count) files from the library folder: \(titles)."
    }
}
