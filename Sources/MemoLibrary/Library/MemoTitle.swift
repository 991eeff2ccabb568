import Foundation
import MemoRules

/// The library's side of `MemoTitle` (MemoRules): the default title, which needs a calendar,
/// and a refusal as the library's error.
extension MemoTitle {
    /// `accepted(_:)`, its refusal as `MemoLibraryError.invalidTitle`.
    static func acceptedInLibrary(_ title: String) throws(MemoLibraryError) -> String {
        do {
            return try accepted(title)
        } catch {
            throw .invalidTitle(error)
        }
    }

    /// The title a new memo gets unless one is given: `Memo 2026-11-29 14:03:12` (local time, to
    /// the second, so memos made a minute apart or less still differ). The one rule for a
    /// recording, a voice take (`prefix` from `--title`) and the app (which builds the same text
    /// from its pure clock: `CivilTime`).
    public static func defaultTitle(for date: Date, timeZone: TimeZone, prefix: String = "Memo") -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(value ?? 0).leftPadded(to: 2) }
        return "\(prefix) \(String(parts.year ?? 0).leftPadded(to: 4))-\(two(parts.month))-\(two(parts.day)) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}

extension Calendar {
    /// The Gregorian calendar in `timeZone`.
    static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
