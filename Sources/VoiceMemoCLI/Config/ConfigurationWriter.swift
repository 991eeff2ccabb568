import AppRuntime
import Foundation
import Interface

/// Keeps settings changed in the app in the config file's block (`AppSettingsBlock`), so the
/// next start reads them back. Never loses the person's file:
///
/// - The new text is written to a hidden temporary file in the same folder, flushed to the
///   disk, given the file's mode and renamed over it: a crash leaves the old file or the new one.
/// - A config that is a symbolic link (into a dotfiles repository, say) is written through: the
///   file it points to is replaced, atomically, in its own folder, and the link stays a link.
///   A link to nothing, or to something that is not a file, is refused.
/// - A read-only file, or a folder the app cannot write in, is left as it is: the write is
///   refused with the reason (the app says it once).
/// - The edited text must parse whenever the old text did; otherwise nothing is written.
/// - A missing file is created (and its XDG folder), mode 0644.
enum ConfigurationWriter {
    /// Writes `changes` into the config file of `environment`.
    ///
    /// - Throws: `SettingsNotSaved` naming the file and why; the file is then as it was.
    static func keep(_ changes: [SettingChange], environment: [String: String]) throws(SettingsNotSaved) {
        let path = ConfigurationFile.path(environment: environment)
        let target = try fileToWrite(for: path)
        var mode: mode_t = 0o644
        var text = ""
        var info = stat()
        if lstat(target, &info) == 0 {
            // A file without write permission for anyone is read-only by choice, even to root.
            guard access(target, W_OK) == 0, info.st_mode & 0o222 != 0 else {
                throw SettingsNotSaved(reason: "the config file is read-only (\(path))")
            }
            mode = info.st_mode & 0o7777
            guard let data = FileManager.default.contents(atPath: target) else {
                throw SettingsNotSaved(reason: "the config file cannot be read (\(path))")
            }
            guard let read = String(data: data, encoding: .utf8) else {
                throw SettingsNotSaved(reason: "the config file is not UTF-8 text (\(path))")
            }
            text = read
        } else {
            let folder = (target as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw SettingsNotSaved(reason: "the config folder cannot be made (\(folder))")
            }
        }
        let edited: String
        do {
            edited = try AppSettingsBlock.edited(text, setting: changes.map(\.configurationEntry))
        } catch {
            guard case .unwritable(let key, _) = error else { throw SettingsNotSaved(reason: "the config file cannot be edited (\(path))") }
            throw SettingsNotSaved(reason: "the value of \(key) cannot be written in the config file (\(path))")
        }
        guard edited != text else { return }
        if (try? ConfigurationParser.parse(text, path: path)) != nil, (try? ConfigurationParser.parse(edited, path: path)) == nil {
            throw SettingsNotSaved(reason: "the config file would not read back with them, so it is left as it is (\(path))")
        }
        try replace(target, with: edited, mode: mode, shownAs: path)
    }

    /// The file to replace for the config at `path`: `path` itself, or the file its symbolic
    /// link points to (links followed to the end).
    ///
    /// - Throws: `SettingsNotSaved` for a link to nothing or a path that is not a file.
    private static func fileToWrite(for path: String) throws(SettingsNotSaved) -> String {
        var info = stat()
        guard lstat(path, &info) == 0 else { return path }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw SettingsNotSaved(reason: "the config file is a link to a file that does not exist (\(path))")
            }
            defer { free(resolved) }
            let target = String(cString: resolved)
            guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw SettingsNotSaved(reason: "the config file is a link to something that is not a file (\(path) → \(target))")
            }
            return target
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SettingsNotSaved(reason: "the config file is not a file (\(path))") }
        return path
    }

    /// Writes `text` to a hidden temporary file beside `target`, flushes it, gives it `mode` and
    /// renames it over `target`, then flushes the folder. The temporary file is removed on failure.
    private static func replace(_ target: String, with text: String, mode: mode_t, shownAs path: String) throws(SettingsNotSaved) {
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var folderInfo = stat()
        // A folder without write permission for anyone is read-only by choice, even to root.
        guard stat(folder, &folderInfo) == 0, access(folder, W_OK) == 0, folderInfo.st_mode & 0o222 != 0 else {
            throw SettingsNotSaved(reason: "the config file's folder is read-only (\(folder))")
        }
        var template = Array("\(folder)/.\(name).settings-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw SettingsNotSaved(reason: "the config file cannot be written: \(String(cString: strerror(errno))) (\(folder))")
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        func fail(_ what: String) -> SettingsNotSaved {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            unlink(temporary)
            return SettingsNotSaved(reason: "the config file cannot be written: \(what): \(reason) (\(path))")
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw fail("writing") }
            written += count
        }
        guard fchmod(descriptor, mode) == 0 else { throw fail("setting its mode") }
        guard fsync(descriptor) == 0 else { throw fail("flushing it") }
        close(descriptor)
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SettingsNotSaved(reason: "the config file cannot be written: \(reason) (\(path))")
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }
}
