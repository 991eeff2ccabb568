import CSndFile
import Glibc

/// The text tags of a sound file, where its format has them.
///
/// Which fields survive (libsndfile 1.2.0, measured): WAV, FLAC, Ogg Vorbis, Ogg Opus and CAF keep
/// all four; AIFF has no date; MP3 (ID3) keeps title and comment, only the year of the date, no software.
/// libsndfile appends its own version to `software` when writing, e.g. "voicememo (libsndfile-1.2.0)".
public struct SoundFileMetadata: Sendable, Hashable, Codable {
    public var title: String?
    public var comment: String?
    public var date: String?
    public var software: String?

    public init(title: String? = nil, comment: String? = nil, date: String? = nil, software: String? = nil) {
        self.title = title
        self.comment = comment
        self.date = date
        self.software = software
    }

    /// A `date` tag for the moment `secondsSince1970`: ISO 8601 in UTC, whole seconds
    /// (`2026-11-29T14:03:12Z`), what `ISO8601DateFormatter` writes by default, formatted by
    /// hand: creating that formatter costs a recording's start about 1 ms (ICU set-up).
    public static func dateText(secondsSince1970: Double) -> String {
        var seconds = time_t(secondsSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(parts.tm_year + 1900, 4) + "-" + digits(parts.tm_mon + 1, 2) + "-" + digits(parts.tm_mday, 2)
            + "T" + digits(parts.tm_hour, 2) + ":" + digits(parts.tm_min, 2) + ":" + digits(parts.tm_sec, 2) + "Z"
    }

    /// Whether no field is set.
    public var isEmpty: Bool {
        title == nil && comment == nil && date == nil && software == nil
    }

    /// The SF_STR_* field for each of our fields.
    private static var fields: [(WritableKeyPath<SoundFileMetadata, String?>, Int)] {
        [
            (\.title, SF_STR_TITLE), (\.comment, SF_STR_COMMENT), (\.date, SF_STR_DATE), (\.software, SF_STR_SOFTWARE),
        ]
    }

    /// Writes the set fields; a field the format lacks is skipped, never an error.
    func write(to handle: SndFileHandle) {
        for (keyPath, field) in Self.fields {
            if let value = self[keyPath: keyPath], !value.isEmpty {
                handle.setString(value, for: field)
            }
        }
    }

    /// Reads the fields the file has.
    static func read(from handle: SndFileHandle) -> SoundFileMetadata {
        var metadata = SoundFileMetadata()
        for (keyPath, field) in fields {
            metadata[keyPath: keyPath] = handle.string(for: field)
        }
        return metadata
    }
}
