/// Calendar date and clock time from seconds since 1970 and a UTC offset, without
/// Foundation's calendar (and so without reading the system's time zone): the runner
/// passes the offset in.
public struct CivilTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    /// - Parameters:
    ///   - seconds: seconds since 1970-01-01 00:00 UTC.
    ///   - utcOffset: the local zone's offset from UTC in seconds.
    public init(seconds: Double, utcOffset: Int) {
        let clamped = seconds.isFinite ? min(max(seconds, -1e12), 1e12) : 0
        let local = Int((clamped + Double(utcOffset)).rounded(.down))
        let days = Int((Double(local) / 86400).rounded(.down))
        let secondOfDay = local - days * 86400
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        (year, month, day) = Self.civilDate(daysSinceEpoch: days)
    }

    /// Days since 1970 for this date (to compare dates).
    public var dayNumber: Int {
        Self.dayNumber(year: year, month: month, day: day)
    }

    /// Days since 1970 for a date (Howard Hinnant's days-from-civil algorithm).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// "2026-11-29".
    public var dateText: String { "\(year)-\(Self.two(month))-\(Self.two(day))" }

    /// "14:03".
    public var timeText: String { "\(Self.two(hour)):\(Self.two(minute))" }

    /// "14:03:12".
    public var timeWithSecondsText: String { timeText + ":" + Self.two(second) }

    /// Howard Hinnant's days-to-civil algorithm.
    private static func civilDate(daysSinceEpoch: Int) -> (Int, Int, Int) {
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
