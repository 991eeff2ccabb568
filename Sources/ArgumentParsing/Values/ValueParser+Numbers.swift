extension ValueParser where Value == Int {
    /// Whole numbers in `range`, written as plain decimal digits with an optional sign.
    public static func integer(in range: ClosedRange<Int>) -> ValueParser<Int> {
        ValueParser { text throws(ValueRejection) in
            guard let number = DecimalText(text, allowsSign: true), number.fractionDigits.isEmpty
            else {
                throw .notAWholeNumber(allowed: range)
            }
            guard let value = number.wholeValue(scaledByPowerOfTen: 0) else {
                throw .wholeNumberOutOfRange(allowed: range)
            }
            guard range.contains(value) else { throw .wholeNumberOutOfRange(allowed: range) }
            return value
        }
    }

    /// Sample rates in Hz within `range`: `48000`, or thousands with a `k` such as `48k` and
    /// `44.1k`.
    ///
    /// A rate must be a whole number of Hz: `44.1k` is 44 100 Hz, `44.12345k` is refused.
    public static func sampleRate(in range: ClosedRange<Int>) -> ValueParser<Int> {
        ValueParser { text throws(ValueRejection) in
            let isInThousands = text.hasSuffix("k") || text.hasSuffix("K")
            let digits = isInThousands ? String(text.dropLast()) : text
            guard let number = DecimalText(digits, allowsSign: false),
                let hertz = number.wholeValue(scaledByPowerOfTen: isInThousands ? 3 : 0)
            else {
                throw .notASampleRate(allowed: range)
            }
            guard range.contains(hertz) else { throw .sampleRateOutOfRange(allowed: range) }
            return hertz
        }
    }
}

extension ValueParser where Value == Double {
    /// Decimal numbers in `range` such as `-40` or `-12.5`, optionally followed by `unit`
    /// (compared without regard to case, so `-40dB` and `-40db` both work).
    ///
    /// Exponents, `nan` and `inf` are refused: nobody types them on purpose.
    public static func number(in range: ClosedRange<Double>, unit: String? = nil) -> ValueParser<Double> {
        ValueParser { text throws(ValueRejection) in
            var numberText = Substring(text)
            if let unit, numberText.lowercased().hasSuffix(unit.lowercased()) {
                numberText = numberText.dropLast(unit.count)
            }
            guard DecimalText(String(numberText), allowsSign: true) != nil,
                let value = Double(numberText), value.isFinite
            else {
                throw .notANumber(allowed: range, unit: unit)
            }
            guard range.contains(value) else { throw .numberOutOfRange(allowed: range, unit: unit) }
            return value
        }
    }
}
