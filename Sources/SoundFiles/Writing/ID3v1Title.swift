import Foundation

/// The title field of an MP3's ID3v1 tag: the 128 bytes at the end of the file, `TAG`, then a
/// 30-byte title. It is the only tag libsndfile 1.2.0 writes (and reads back) for MP3.
enum ID3v1Title {
    /// The size of an ID3v1 tag.
    static let tagSize = 128
    /// The bytes the title field holds.
    static let titleSize = 30

    /// Copies `source` to `destination` byte for byte, with `title` in the ID3v1 tag (one is
    /// added when the file has none).
    static func copy(_ source: String, to destination: String, title: String) throws(SoundFileError) {
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            let file = try FileHandle(forUpdating: URL(fileURLWithPath: destination))
            defer { try? file.close() }
            let end = try file.seekToEnd()
            var hasTag = false
            if end >= UInt64(tagSize) {
                try file.seek(toOffset: end - UInt64(tagSize))
                hasTag = try file.read(upToCount: 3) == Data("TAG".utf8)
            }
            if hasTag {
                try file.seek(toOffset: end - UInt64(tagSize) + 3)
                try file.write(contentsOf: field(title))
            } else {
                try file.seekToEnd()
                var tag = Data("TAG".utf8) + field(title)
                tag += Data(count: tagSize - 3 - titleSize - 1)
                tag.append(255)  // genre: none
                try file.write(contentsOf: tag)
            }
            try file.synchronize()
        } catch {
            throw SoundFileError.foundation(error, kind: .write, path: destination, doing: "writing the title failed")
        }
    }

    /// `title` in UTF-8, cut at a character boundary to fit the field, padded with NULs.
    static func field(_ title: String) -> Data {
        var bytes: [UInt8] = []
        for character in title {
            let utf8 = Array(String(character).utf8)
            if bytes.count + utf8.count > titleSize { break }
            bytes += utf8
        }
        return Data(bytes + [UInt8](repeating: 0, count: titleSize - bytes.count))
    }
}
