/// How a level in dBFS becomes a 0…1 position on the meter.
public enum MeterScale: Sendable, Equatable {
    /// Through a `MeterTable`: the classic iOS meter look (default −60 dB floor, root 2).
    case table(MeterTable)
    /// Linear in decibels over the full −160…0 dB range, `(dB + 160) / 160`, as older apps did.
    case linear

    /// The classic table with its default settings.
    public static let standard = MeterScale.table(MeterTable())

    /// The lowest level the scale shows, dBFS: anything quieter sits at 0 and reads below it.
    public var floor: Float {
        switch self {
        case .table(let table): table.minDecibels
        case .linear: Decibels.floor
        }
    }

    /// The meter position (0…1) of a level in dBFS; NaN reads 0.
    public func value(forPower decibels: Float) -> Float {
        switch self {
        case .table(let table):
            return table.value(forPower: decibels)
        case .linear:
            let position = (decibels - Decibels.floor) / -Decibels.floor
            guard position > 0 else { return 0 }
            return min(position, 1)
        }
    }
}
