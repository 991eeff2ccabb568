import Foundation
import Vocabulary

/// The library's side of `MemoTitle` (Vocabulary): the default title, which needs a calendar,
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

    /// `defaultTitle(year:…)` for `date` in `timeZone`.
    public static func defaultTitle(for date: Date, timeZone: TimeZone, prefix: String = "Memo") -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return defaultTitle(
            year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0, hour: parts.hour ?? 0,
            minute: parts.minute ?? 0, second: parts.second ?? 0, prefix: prefix)
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
