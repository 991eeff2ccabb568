extension String {
    /// The string padded with spaces on the right to at least `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The string padded with spaces on the left to at least `width` characters.
    func leftPadding(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// `value` with exactly `decimals` digits after the point, without Foundation's `String(format:)`.
func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value.magnitude * scale).rounded())
    let divisor = Int(scale)
    let whole = scaled / divisor
    let fraction = String(scaled % divisor).leftPadding(to: decimals).replacingSpacesWithZeros()
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}

extension String {
    fileprivate func replacingSpacesWithZeros() -> String {
        String(map { $0 == " " ? "0" : $0 })
    }
}
