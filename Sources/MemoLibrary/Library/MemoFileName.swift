import Foundation

/// Names of memo files: the creation time plus a short random suffix, never the title.
///
/// `2026-11-29_14-03-12_a1b2c3.flac`: sorts by time, safe in every shell, unique.
enum MemoFileName {
    /// A fresh name for a memo created at `date`.
    static func make(for date: Date, fileExtension: String, timeZone: TimeZone) -> String {
        let parts = Calendar.gregorian(in: timeZone)
            .dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(value ?? 0).leftPadded(to: 2) }
        var generator = SystemRandomNumberGenerator()
        let suffix = String(generator.next() & 0xFF_FFFF, radix: 16).leftPadded(to: 6)
        return "\(String(parts.year ?? 0).leftPadded(to: 4))-\(two(parts.month))-\(two(parts.day))_"
            + "\(two(parts.hour))-\(two(parts.minute))-\(two(parts.second))_\(suffix).\(fileExtension)"
    }

    /// The creation time a name made by `make` stands for, if `name` is one.
    static func date(in name: String, timeZone: TimeZone) -> Date? {
        let digits = name.prefix(19).split(whereSeparator: { $0 == "-" || $0 == "_" }).compactMap { Int($0) }
        guard digits.count == 6, name.count >= 19 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (digits[0], digits[1], digits[2])
        (components.hour, components.minute, components.second) = (digits[3], digits[4], digits[5])
        return Calendar.gregorian(in: timeZone).date(from: components)
    }

    /// `name` without its extension.
    static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
