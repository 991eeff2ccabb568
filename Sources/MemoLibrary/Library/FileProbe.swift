import Foundation
import Vocabulary
import SoundFiles

/// What an audio file on disk says about itself: its audio info and tags, or that it is unreadable.
struct FileProbe {
    let path: String
    let info: SoundFileInfo?
    let metadata: SoundFileMetadata
    let size: Int64
    private let timeZone: TimeZone

    /// The comment a memo's file carries, naming its id: `VoiceMemo memo 42`.
    static let commentPrefix = MemoComment.idPrefix

    init(path: String, timeZone: TimeZone) {
        self.path = path
        self.timeZone = timeZone
        size = FileSystem.size(of: path) ?? 0
        if let reader = try? SoundFileReader(path: path) {
            info = reader.info
            metadata = reader.metadata
            reader.close()
        } else {
            info = nil
            metadata = SoundFileMetadata()
        }
    }

    /// The id named by the file's comment tag, if any.
    var taggedID: Int64? {
        comment.memoID
    }

    /// The file's comment, read as a memo's (its id, tags and star).
    var comment: MemoComment {
        MemoComment(parsing: metadata.comment)
    }

    /// A row for the file (id 0: to be chosen).
    func memo(now: Date) -> Memo {
        let name = String(path.split(separator: "/").last ?? "")
        let format = info?.format ?? RecordingSettings.inferred(fromPath: name) ?? .wav
        var title = metadata.title.flatMap { (try? MemoTitle.validate($0)) == nil ? nil : $0 } ?? MemoFileName.stem(of: name)
        if (try? MemoTitle.validate(title)) == nil {
            title = String(title.prefix(MemoTitle.maximumLength))
        }
        if (try? MemoTitle.validate(title)) == nil {
            title = "Untitled"
        }
        let created =
            metadata.date.flatMap(Self.parseDate) ?? MemoFileName.date(in: name, timeZone: timeZone)
            ?? FileSystem.modificationDate(of: path) ?? now
        let comment = comment
        var memo = Memo(
            id: 0, title: title, created: created, duration: info?.duration ?? 0, frames: info?.frames ?? 0,
            sampleRate: info?.sampleRate ?? 0, channels: info?.channels ?? 0, format: format,
            encoding: info?.encoding ?? format.defaultEncoding, path: path, size: size, peakDB: -160,
            state: info == nil ? .damaged : .complete)
        memo.tags = comment.tags
        memo.isStarred = comment.isStarred
        memo.channelRoles = comment.channelRoles.flatMap { $0.channelCount <= memo.channels ? $0 : nil }
        return memo
    }

    /// An ISO 8601 date-time as written in our tags (`2026-11-29T14:03:12Z`).
    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
