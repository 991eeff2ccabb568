/// A decimal number as typed, `[sign] digits [. digits]`, kept as text so it converts exactly.
///
/// Shared by the number, sample-rate and duration parsers so they agree on what a number looks
/// like: no exponents, no `nan`/`inf`, no leading or trailing dot, no spaces.
struct DecimalText {
    /// Whether a minus sign came first.
    let isNegative: Bool
    /// The digits before the dot, at least one.
    let integerDigits: Substring
    /// The digits after the dot, empty when there is no dot.
    let fractionDigits: Substring

    /// Reads `text`, or returns `nil` when it is not a plain decimal number.
    init?(_ text: String, allowsSign: Bool) {
        var rest = Substring(text)
        var isNegative = false
        if allowsSign, let first = rest.first, first == "-" || first == "+" {
            isNegative = first == "-"
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let integerDigits = parts.first, !integerDigits.isEmpty,
            integerDigits.allSatisfy(\.isASCIIDigit)
        else { return nil }
        var fractionDigits: Substring = ""
        if parts.count == 2 {
            fractionDigits = parts[1]
            guard !fractionDigits.isEmpty, fractionDigits.allSatisfy(\.isASCIIDigit) else { return nil }
        }
        self.isNegative = isNegative
        self.integerDigits = integerDigits
        self.fractionDigits = fractionDigits
    }

    /// The number times 10^`power` when that is a whole number fitting in `Int`, else `nil`.
    func wholeValue(scaledByPowerOfTen power: Int) -> Int? {
        let shifted = fractionDigits.prefix(power)
        let remaining = fractionDigits.dropFirst(power)
        guard remaining.allSatisfy({ $0 == "0" }) else { return nil }
        let padding = String(repeating: "0", count: power - shifted.count)
        guard let magnitude = Int(String(integerDigits) + String(shifted) + padding) else { return nil }
        return isNegative ? -magnitude : magnitude
    }
}

extension Character {
    /// `0`…`9` only: `Character.isNumber` also accepts other scripts' digits and fractions.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
