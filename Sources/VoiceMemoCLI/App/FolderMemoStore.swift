import Foundation
import MemoLibrary
import SoundFiles

/// INTERIM memo store, until the SQLite memo library lands: the memos are the sound
/// files in the library folder; titles, ids and deletion times live in a small JSON
/// file beside them (`app-interim-index.json`); Recently Deleted is the `.deleted`
/// subfolder. Files dropped into the folder are adopted (title from their tags or name).
final class FolderMemoStore: MemoStore {
    private struct Entry: Codable {
        var id: Int64
        var title: String
        var created: Date
        var deletedAt: Date?
    }

    private struct Index: Codable {
        var nextID: Int64 = 1
        var entries: [String: Entry] = [:]
    }

    let directory: URL
    private var deletedDirectory: URL { directory.appendingPathComponent(".deleted") }
    private var indexURL: URL { directory.appendingPathComponent("app-interim-index.json") }
    private var index = Index()

    init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createDirectory(at: deletedDirectory, withIntermediateDirectories: true)
        } catch {
            throw MemoStoreError(description: "The library folder \(directory) cannot be created (\(error.localizedDescription)).")
        }
        if let data = try? Data(contentsOf: indexURL), let loaded = try? JSONDecoder().decode(Index.self, from: data) {
            index = loaded
        }
    }

    func memos(excluding excludedPath: String?) throws -> [Memo] {
        try scan(directory, deleted: false).filter { $0.path != excludedPath }.sorted { $0.created > $1.created }
    }

    func deletedMemos() throws -> [Memo] {
        try scan(deletedDirectory, deleted: true).sorted { ($0.deletedAt ?? $0.created) > ($1.deletedAt ?? $1.created) }
    }

    func pathForNewRecording(format: FileFormat, created: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = "memo-" + formatter.string(from: created)
        let fileExtension = format.fileExtensions.first ?? format.rawValue
        var candidate = directory.appendingPathComponent("\(stem).\(fileExtension)").path
        var counter = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = directory.appendingPathComponent("\(stem)-\(counter).\(fileExtension)").path
            counter += 1
        }
        return candidate
    }

    func addRecording(at path: String, title: String, created: Date) throws -> Memo {
        let name = (path as NSString).lastPathComponent
        let id = index.nextID
        index.nextID += 1
        index.entries[name] = Entry(id: id, title: title, created: created)
        try save()
        guard let memo = memo(at: URL(fileURLWithPath: path), deleted: false) else {
            throw MemoStoreError(description: "The recording \(path) cannot be read back.")
        }
        return memo
    }

    func rename(_ id: Int64, to title: String) throws {
        let name = try fileName(of: id)
        index.entries[name]?.title = title
        try save()
    }

    func delete(_ id: Int64) throws {
        let name = try fileName(of: id)
        try move(name, from: directory, to: deletedDirectory)
        index.entries[name]?.deletedAt = Date()
        try save()
    }

    func restore(_ id: Int64) throws {
        let name = try fileName(of: id)
        try move(name, from: deletedDirectory, to: directory)
        index.entries[name]?.deletedAt = nil
        try save()
    }

    func purge(_ id: Int64) throws {
        let name = try fileName(of: id)
        do {
            try FileManager.default.removeItem(at: deletedDirectory.appendingPathComponent(name))
        } catch {
            throw MemoStoreError(description: "“\(name)” cannot be removed (\(error.localizedDescription)).")
        }
        index.entries[name] = nil
        try save()
    }

    // MARK: Private

    private func scan(_ folder: URL, deleted: Bool) throws -> [Memo] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw MemoStoreError(description: "The library folder \(folder.path) cannot be read (\(error.localizedDescription)).")
        }
        var adopted = false
        let memos = names.sorted().compactMap { name -> Memo? in
            guard !name.hasPrefix("."), RecordingSettings.inferred(fromPath: name) != nil else { return nil }
            if index.entries[name] == nil { adopted = true }
            return memo(at: folder.appendingPathComponent(name), deleted: deleted)
        }
        if adopted { try? save() }
        return memos
    }

    private func memo(at url: URL, deleted: Bool) -> Memo? {
        let name = url.lastPathComponent
        guard let reader = try? SoundFileReader(path: url.path) else { return nil }
        defer { reader.close() }
        let info = reader.info
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        let entry = index.entries[name] ?? {
            let modified = attributes?[.modificationDate] as? Date ?? Date()
            let title = reader.metadata.title.flatMap { $0.isEmpty ? nil : $0 } ?? url.deletingPathExtension().lastPathComponent
            let entry = Entry(id: index.nextID, title: title, created: modified, deletedAt: deleted ? modified : nil)
            index.nextID += 1
            index.entries[name] = entry
            return entry
        }()
        return Memo(
            id: entry.id, title: entry.title, created: entry.created, duration: info.duration, frames: info.frames,
            sampleRate: info.sampleRate, channels: info.channels, format: info.format ?? .wav,
            encoding: info.encoding ?? .pcm16, path: url.path, size: size, peakDB: -160, state: .complete,
            deletedAt: deleted ? (entry.deletedAt ?? entry.created) : nil)
    }

    private func fileName(of id: Int64) throws -> String {
        guard let name = index.entries.first(where: { $0.value.id == id })?.key else {
            throw MemoStoreError(description: "That memo is no longer in the library.")
        }
        return name
    }

    private func move(_ name: String, from source: URL, to destination: URL) throws {
        do {
            try FileManager.default.moveItem(at: source.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        } catch {
            throw MemoStoreError(description: "“\(name)” cannot be moved (\(error.localizedDescription)).")
        }
    }

    private func save() throws {
        do {
            let data = try JSONEncoder().encode(index)
            try data.write(to: indexURL, options: .atomic)
        } catch {
            throw MemoStoreError(description: "The library index cannot be written (\(error.localizedDescription)).")
        }
    }
}
