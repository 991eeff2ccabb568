extension ValueParser where Value == Duration {
    /// Durations, as a Swift `Duration` exact to the nanosecond.
    ///
    /// Accepted forms:
    /// - a number of seconds: `90`, `1.5`
    /// - a number with a unit: `250ms`, `1.5s`, `2m` (or `2min`), `1h`
    /// - clock time: `01:30` (minutes:seconds), `1:02:03` (hours:minutes:seconds), the last part
    ///   may have a fraction (`00:01.5`); parts after the first must be below 60.
    ///
    /// Refused: empty text, negative values (`-0` is 0), `nan`/`inf`, exponents, stray dots (`1.5.2`),
    /// unknown units (`10x`) and anything longer than ``maximumDuration``.
    public static var duration: ValueParser<Duration> {
        ValueParser { text throws(ValueRejection) in
            try DurationText.parse(text)
        }
    }

    /// A duration above zero (`record --duration`: recording for no time records nothing).
    public static var positiveDuration: ValueParser<Duration> {
        ValueParser { text throws(ValueRejection) in
            let duration = try DurationText.parse(text)
            guard duration > .zero else {
                throw .custom(problem: "is no time at all", allowed: "give a length above zero, e.g. 90, 1.5s, 250ms or 2m")
            }
            return duration
        }
    }

    /// The longest duration the parser accepts: 100 000 hours (about 11 years).
    ///
    /// Far beyond any recording, and small enough that nanoseconds fit in `Int64` and frame
    /// counts (seconds × sample rate) stay far from overflow.
    public static var maximumDuration: Duration { .seconds(100_000 * 3600) }
}

/// The grammar behind ``ValueParser/duration``, in nanoseconds.
enum DurationText {
    private static let nanosecondsPerSecond: Int64 = 1_000_000_000

    private static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ms", 1_000_000), ("min", 60 * nanosecondsPerSecond), ("s", nanosecondsPerSecond),
        ("m", 60 * nanosecondsPerSecond), ("h", 3600 * nanosecondsPerSecond),
    ]

    static func parse(_ text: String) throws(ValueRejection) -> Duration {
        if text.hasPrefix("-") {
            let magnitude = String(text.dropFirst())
            guard !magnitude.isEmpty, !magnitude.hasPrefix("-"), let value = try? parse(magnitude) else { throw .notADuration }
            // Minus nothing is nothing: `-0` is 0, and a command says what is wrong with 0 there
            // (`split M -0`: "0 s is not inside the memo"), not that it is negative.
            guard value == .zero else { throw .negativeDuration }
            return .zero
        }
        let nanoseconds = text.contains(":") ? try clockNanoseconds(text) : try unitNanoseconds(text)
        let duration = Duration.nanoseconds(nanoseconds)
        guard duration <= ValueParser<Duration>.maximumDuration else {
            throw .durationTooLong(maximum: ValueParser<Duration>.maximumDuration)
        }
        return duration
    }

    /// `90`, `1.5s`, `250ms`, `2m`, `1h`.
    private static func unitNanoseconds(_ text: String) throws(ValueRejection) -> Int64 {
        var numberText = Substring(text)
        var unit = nanosecondsPerSecond
        if let match = units.first(where: { text.hasSuffix($0.suffix) }) {
            numberText = numberText.dropLast(match.suffix.count)
            unit = match.nanoseconds
        }
        guard let number = DecimalText(String(numberText), allowsSign: false) else {
            throw .notADuration
        }
        return try nanoseconds(of: number, unit: unit)
    }

    /// `01:30`, `1:02:03`, `00:01.5`.
    private static func clockNanoseconds(_ text: String) throws(ValueRejection) -> Int64 {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { throw .notADuration }
        let placeValues: [Int64] = parts.count == 3 ? [3600, 60, 1] : [60, 1]
        var total: Int64 = 0
        for (index, part) in parts.enumerated() {
            let isFirst = index == 0
            let isLast = index == parts.count - 1
            guard let number = DecimalText(String(part), allowsSign: false),
                isLast || number.fractionDigits.isEmpty
            else { throw .notADuration }
            if !isFirst {
                guard let whole = Int(number.integerDigits), whole < 60 else { throw .notADuration }
            }
            let partNanoseconds = try nanoseconds(
                of: number, unit: placeValues[index] * nanosecondsPerSecond)
            let (sum, overflow) = total.addingReportingOverflow(partNanoseconds)
            guard !overflow else { throw tooLong }
            total = sum
        }
        return total
    }

    /// `number` × `unit` nanoseconds; the fraction is rounded to the nearest nanosecond.
    private static func nanoseconds(of number: DecimalText, unit: Int64) throws(ValueRejection) -> Int64 {
        guard let whole = Int64(number.integerDigits) else { throw tooLong }
        let (wholeNanoseconds, overflow) = whole.multipliedReportingOverflow(by: unit)
        guard !overflow else { throw tooLong }
        guard !number.fractionDigits.isEmpty else { return wholeNanoseconds }
        let fraction = Double("0." + number.fractionDigits) ?? 0
        let fractionNanoseconds = Int64((fraction * Double(unit)).rounded())
        let (sum, sumOverflow) = wholeNanoseconds.addingReportingOverflow(fractionNanoseconds)
        guard !sumOverflow else { throw tooLong }
        return sum
    }

    private static var tooLong: ValueRejection {
        .durationTooLong(maximum: ValueParser<Duration>.maximumDuration)
    }
}
