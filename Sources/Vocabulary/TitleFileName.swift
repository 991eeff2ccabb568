
/// A memo's title made one safe file name, for a copy written out (`export MEMO FOLDER/`, the
/// app's export prompt): the one rule, so the command line and the app name a copy alike.
public enum TitleFileName {
    /// The most characters kept, and the most UTF-8 bytes (a file name holds 255 bytes; room is
    /// left for the extension and for a hidden temporary name around it while it is written).
    public static let maximumCharacters = 120
    public static let maximumBytes = 200

    /// `title` as a file name: `/`, `\` and `:` become `-`, and `? * " < > |` are dropped (so
    /// the copy can go onto a FAT or NTFS stick too), control and format characters (escapes,
    /// bidirectional overrides) are dropped, white space at either end too, a leading dot
    /// becomes `_` (never hidden), cut at a character boundary to `maximumCharacters` and
    /// `maximumBytes`; never empty ("memo").
    public static func make(from title: String) -> String {
        var name = String(
            title.unicodeScalars.compactMap { scalar -> Character? in
                if "/\\:".unicodeScalars.contains(scalar) { return "-" }
                if "?*\"<>|".unicodeScalars.contains(scalar) { return nil }
                let category = scalar.properties.generalCategory
                return category == .control || category == .format ? nil : Character(scalar)
            }
        ).trimmingWhiteSpace
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        if name.count > maximumCharacters { name = String(name.prefix(maximumCharacters)) }
        while name.utf8.count > maximumBytes { name.removeLast() }
        name = name.trimmingWhiteSpace
        return name.isEmpty ? "memo" : name
    }
}
