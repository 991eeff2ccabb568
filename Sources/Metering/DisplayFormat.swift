import Glibc
/// Text for the numbers the meter screen and the memo list show.
///
/// Pure functions, no Foundation: clock times `HH:mm:ss`, byte counts in SI units, and levels
/// in dB with one decimal.
public enum DisplayFormat {
    /// Elapsed time as `HH:mm:ss`, rounded down to whole seconds.
    ///
    /// Hours grow past two digits ("123:04:05"). Negative, NaN and infinite times read
    /// "00:00:00"; times beyond 10¹⁵ s read as 10¹⁵ s.
    public static func elapsedTime(seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return clock(wholeSeconds: 0) }
        return clock(wholeSeconds: Int64(min(seconds, 1e15)))
    }

    /// Elapsed time as `HH:mm:ss` of `frames` at `sampleRate` frames per second.
    ///
    /// Integer arithmetic, so no frame count is misread by floating-point rounding. Negative
    /// frame counts and non-positive rates read "00:00:00".
    public static func elapsedTime(frames: Int64, sampleRate: Int) -> String {
        guard frames > 0, sampleRate > 0 else { return clock(wholeSeconds: 0) }
        return clock(wholeSeconds: frames / Int64(sampleRate))
    }

    /// A duration in seconds for messages, to the hundredth and without trailing zeros:
    /// "30.39 s", "1.5 s", "5 s", "0 s".
    ///
    /// Rounded half up; negative, NaN and infinite durations read "0 s"; durations beyond
    /// 10¹⁵ s read as 10¹⁵ s.
    public static func seconds(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0 s" }
        let hundredths = Int64(Glibc.round(min(seconds, 1e15) * 100))
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return "\(whole) s" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10) s" }
        return "\(whole).\(twoDigits(fraction)) s"
    }

    /// A byte count as people read it: "0 B", "999 B", "1.0 kB", "310 kB", "1.2 MB", "3.4 GB".
    ///
    /// Decimal SI units (1 kB = 1000 B, "kB" lower-case), one decimal below 10 and none from 10
    /// up, rounded half up; a value that rounds to 1000 moves to the next unit ("1.0 MB", not
    /// "1000 kB"). Negative counts read "0 B".
    public static func byteCount(_ bytes: Int64) -> String {
        guard bytes >= 1000 else { return "\(max(bytes, 0)) B" }
        let units = ["kB", "MB", "GB", "TB", "PB", "EB"]
        var unitSize: Int64 = 1000
        for (index, unit) in units.enumerated() {
            let isLargestUnit = index == units.count - 1
            let tenths = roundedQuotient(bytes, unitSize / 10)
            if tenths < 100 {
                return "\(tenths / 10).\(tenths % 10) \(unit)"
            }
            let whole = roundedQuotient(bytes, unitSize)
            if whole < 1000 || isLargestUnit {
                return "\(whole) \(unit)"
            }
            unitSize *= 1000
        }
        return "\(bytes) B"
    }

    /// A level with one decimal: "-18.2 dB", "0.0 dB", "-160.0 dB".
    ///
    /// Rounded half away from zero. Levels below the −160 dB floor, −∞ and NaN read as the
    /// floor; nothing reads "-0.0". Levels above +999.9 read "999.9".
    /// - Parameter includingUnit: whether to append " dB".
    public static func decibels(_ level: Float, includingUnit: Bool = true) -> String {
        let clamped = level.isNaN ? Decibels.floor : min(max(level, Decibels.floor), 999.9)
        let tenths = Int(Glibc.round(Double(clamped) * 10))
        let sign = tenths < 0 ? "-" : ""
        let text = "\(sign)\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
        return includingUnit ? text + " dB" : text
    }

    /// A meter's reading without the unit: "-18.2", "0.0", and "<-60" below `floor`, the
    /// lowest level the meter shows (silence, −∞, NaN, a peak hold or a needle still falling):
    /// every meter mode reads what it cannot show the same way, instead of a figure like
    /// "-97.4" or "-160.0" that reads as a level.
    public static func meterReading(_ level: Float, floor: Float) -> String {
        level.isNaN || level < floor ? belowFloor(floor) : decibels(level, includingUnit: false)
    }

    /// "<-60": what a reading below `floor` shows (the floor in whole dB, or to a tenth).
    public static func belowFloor(_ floor: Float) -> String {
        let whole = floor.rounded()
        return "<" + (whole == floor && abs(floor) < 1e6 ? "\(Int(whole))" : decibels(floor, includingUnit: false))
    }

    private static func clock(wholeSeconds: Int64) -> String {
        let hours = wholeSeconds / 3600
        let minutes = wholeSeconds / 60 % 60
        let seconds = wholeSeconds % 60
        return "\(twoDigits(hours)):\(twoDigits(minutes)):\(twoDigits(seconds))"
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// `dividend / divisor` rounded half up, without the overflow of adding `divisor / 2` first.
    private static func roundedQuotient(_ dividend: Int64, _ divisor: Int64) -> Int64 {
        let quotient = dividend / divisor
        let remainder = dividend % divisor
        return remainder >= divisor - remainder ? quotient + 1 : quotient
    }
}
