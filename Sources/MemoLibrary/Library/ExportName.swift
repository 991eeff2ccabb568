import Vocabulary
import SoundFiles

/// The file an export writes for the PATH it was given: a folder gets `<title>.<ext>` in it,
/// a name without a sound format's extension gets the format's.
///
/// - A folder is a path ending in `/`, or one that is a folder (through a link too); it must
///   exist. The title becomes a file name by `TitleFileName` (no `/`, no control characters,
///   never hidden), the extension is the format's: `--format`'s, else the memo's own.
/// - A name whose extension names a format (`talk.flac`) is written as named, in that format
///   unless `--format` says otherwise (a clash is refused by the caller).
/// - A name ending in another tool's extension for a format (`talk.mp4`, `talk.aac`) is refused
///   naming ours (`.m4a`), unless `--format` asks for that very format.
/// - Any other name (`Standup`, `notes.v2`) gets the format's extension: `Standup.flac`.
///   Except where something other than a regular file is at the path already (a device, a
///   FIFO, a symbolic link): that is left as named, for `OutputDestination` to judge.
enum ExportName {
    /// The file to write for `path` and its format.
    ///
    /// - Parameters:
    ///   - asked: `--format`, if given.
    ///   - memoFormat: the memo's own format, the default.
    /// - Throws: `.file` for a folder that does not exist or is not a folder.
    static func resolve(_ path: String, title: String, asked: FileFormat?, memoFormat: FileFormat)
        throws(MemoLibraryError) -> (file: String, format: FileFormat)
    {
        if namesAFolder(path) {
            let format = asked ?? memoFormat
            return (try file(named: title, extension: fileExtension(of: format), inFolder: path), format)
        }
        if let named = RecordingSettings.inferred(fromPath: path) {
            return (path, asked ?? named)
        }
        if let other = otherToolsExtension(of: path) {
            // `out.mp4` means an M4A: written as named only when --format says so.
            if asked == other.format { return (path, other.format) }
            throw .file(
                path: path,
                reason: "“.\(other.text)” is not an extension VoiceMemo writes; for \(other.format.displayName) name it "
                    + ".\(fileExtension(of: other.format)) (or add --format \(other.format.rawValue) to keep the name)")
        }
        let format = asked ?? memoFormat
        switch FileSystem.kind(of: path) {
        case .none, .regularFile: return (path + "." + fileExtension(of: format), format)
        default: return (path, format)
        }
    }

    /// The file to write for a transcript as `format` at `path`: a folder gets `<title>.<ext>`
    /// in it, a name that does not end in the format's extension gets it (`notes` →
    /// `notes.srt`).
    static func resolveTranscript(_ path: String, title: String, format: TranscriptFormat) throws(MemoLibraryError) -> String {
        if namesAFolder(path) { return try file(named: title, extension: format.rawValue, inFolder: path) }
        if TranscriptFormat.named(byExtensionOf: path) == format { return path }
        switch FileSystem.kind(of: path) {
        case .none, .regularFile: return path + "." + format.rawValue
        default: return path
        }
    }

    /// The extension of `path`'s name when it is another tool's name for a format VoiceMemo
    /// writes (`.mp4`, `.aac`: `FileFormat.otherNames`), and that format.
    private static func otherToolsExtension(of path: String) -> (text: String, format: FileFormat)? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let text = String(name[name.index(after: dot)...])
        return FileFormat.otherNames[text.lowercased()].map { (text, $0) }
    }

    /// The extension a file of `format` is given: its first (`.ogg`, `.aiff`).
    static func fileExtension(of format: FileFormat) -> String {
        format.fileExtensions.first ?? format.rawValue
    }

    /// `<title>.<ext>` in the folder `path` names, which must exist.
    private static func file(named title: String, extension fileExtension: String, inFolder path: String) throws(MemoLibraryError) -> String {
        let folder = withoutTrailingSlashes(path)
        if let (problem, code) = OutputDestination.folderProblem(ofFolder: folder) {
            throw .file(path: path, reason: problem, osError: code)
        }
        return (folder == "/" ? "" : folder) + "/" + TitleFileName.make(from: title) + "." + fileExtension
    }

    private static func namesAFolder(_ path: String) -> Bool {
        path.hasSuffix("/") || FileSystem.kind(of: path, follow: true) == .directory
    }

    /// `exports//` → `exports`; `/` stays `/`.
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var folder = Substring(path)
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return String(folder)
    }
}
