import Foundation

/// The names that complete a path typed at a prompt, as a shell's Tab finds them: the entries
/// of the typed path's folder (`~` read as the home folder) that start with what follows its
/// last `/`, hidden ones only when that starts with `.`, each returned as it would be typed
/// (the folder part as typed, a folder ending in `/`), sorted.
enum PathCompletions {
    static func matches(for typed: String, home: String?) -> [String] {
        let slash = typed.lastIndex(of: "/")
        let folderPart = slash.map { String(typed[...$0]) } ?? ""
        let prefix = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        var folder = folderPart.isEmpty ? "." : folderPart
        if let home, !home.isEmpty, folder == "~/" || folder.hasPrefix("~/") { folder = home + folder.dropFirst() }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { name in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: (folder.hasSuffix("/") ? folder : folder + "/") + name, isDirectory: &isFolder)
            return folderPart + name + (exists && isFolder.boolValue ? "/" : "")
        }
    }
}
