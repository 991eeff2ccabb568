import Foundation
import Glibc
import Platform

/// `record --at`: when a recording starts, on the wall clock. `HH:MM` or `HH:MM:SS` is the next
/// such time (today while it is still ahead, else tomorrow); `YYYY-MM-DDTHH:MM[:SS]` (or with a
/// space for the `T`) is that moment, refused when it has passed. Local time.
///
/// The wait sleeps without CPU (`clock_nanosleep` on `CLOCK_REALTIME`, to absolute times a
/// quarter second apart, so a stop signal is seen at once) and so wakes at the right time after a
/// suspend, or when the clock is set; nothing is opened until then.
struct ScheduledStart: Equatable, Sendable {
    /// What was given, for messages.
    let text: String
    /// The start, in seconds since 1970.
    let time: Double

    /// Why a `--at` value was refused.
    enum Problem: Error, Equatable {
        case notATime
        case noSuchDay
        /// A local time a clock change skips.
        case skippedByAClockChange
        case inThePast(now: String)

        /// What follows the quoted value in a usage error, and what would work.
        var words: (problem: String, allowed: String) {
            let forms = "use HH:MM or HH:MM:SS (the next such time) or YYYY-MM-DDTHH:MM[:SS], local time, e.g. 14:00 or 2026-12-08T09:30"
            return switch self {
            case .notATime: ("is not a time", forms)
            case .noSuchDay: ("is no such day or time", "months 1-12, the month's days, hours 0-23, minutes and seconds 0-59")
            case .skippedByAClockChange: ("does not occur here: the clock skips it (a daylight-saving change)", "choose another time")
            case .inThePast(let now): ("has passed (it is \(now) now)", "give a time ahead, or HH:MM for the next one")
            }
        }
    }

    /// The start `text` names, seen at `now` by `calendar` (its time zone is the local one).
    static func parse(_ text: String, now: Date, calendar: Calendar) throws(Problem) -> ScheduledStart {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(whereSeparator: { $0 == "T" || $0 == " " }).map(String.init)
        guard parts.count == 1 || parts.count == 2 else { throw .notATime }
        guard let clock = Self.clock(parts[parts.count - 1]) else { throw .notATime }
        var components = DateComponents()
        components.hour = clock.hour
        components.minute = clock.minute
        components.second = clock.second
        if parts.count == 2 {
            let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            guard day.count == 3, let year = day[0], let month = day[1], let dayOfMonth = day[2], parts[0].count == 10 else {
                throw .notATime
            }
            components.year = year
            components.month = month
            components.day = dayOfMonth
            guard (1...12).contains(month), (1...31).contains(dayOfMonth), let date = calendar.date(from: components) else {
                throw .noSuchDay
            }
            try Self.check(date, is: components, calendar)
            guard date > now else { throw .inThePast(now: Self.text(now, calendar)) }
            return ScheduledStart(text: trimmed, time: date.timeIntervalSince1970)
        }
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        components.year = today.year
        components.month = today.month
        components.day = today.day
        guard var date = calendar.date(from: components) else { throw .noSuchDay }
        if date <= now {
            var tomorrow = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: 1, to: now) ?? now)
            tomorrow.hour = clock.hour
            tomorrow.minute = clock.minute
            tomorrow.second = clock.second
            components = tomorrow
            guard let next = calendar.date(from: tomorrow) else { throw .noSuchDay }
            date = next
        }
        try Self.check(date, is: components, calendar)
        return ScheduledStart(text: trimmed, time: date.timeIntervalSince1970)
    }

    /// `HH:MM` or `HH:MM:SS`, two digits each (`9:30` too).
    private static func clock(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3, fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
            let hour = Int(fields[0]), let minute = Int(fields[1]), (0...23).contains(hour), (0...59).contains(minute), fields[1].count == 2
        else { return nil }
        let second = fields.count == 3 ? Int(fields[2]) : 0
        guard let second, (0...59).contains(second), fields.count == 2 || fields[2].count == 2 else { return nil }
        return (hour, minute, second)
    }

    /// The calendar moved a day that does not exist (30 February) or a time a clock change skips.
    private static func check(_ date: Date, is wanted: DateComponents, _ calendar: Calendar) throws(Problem) {
        let got = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard got.year == wanted.year, got.month == wanted.month, got.day == wanted.day else { throw .noSuchDay }
        guard got.hour == wanted.hour, got.minute == wanted.minute, got.second == wanted.second else { throw .skippedByAClockChange }
    }

    /// `2026-12-06 14:00:00`, local time.
    static func text(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }

    /// Sleeps until `time` (seconds since 1970, `CLOCK_REALTIME`).
    ///
    /// - Returns: `false` when a stop signal came first (`StopSignals`, installed by the caller).
    static func wait(until time: Double) -> Bool {
        while true {
            if StopSignals.pending != nil { return false }
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let current = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
            if current >= time { return true }
            let next = min(time, current + 0.25)
            var target = timespec(tv_sec: Int(next.rounded(.down)), tv_nsec: Int((next - next.rounded(.down)) * 1e9))
            _ = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &target, nil)
        }
    }
}
