import Metering

/// How many LEDs a meter row has and how wide each is, for a row `width` columns wide;
/// shared by the LED rows and the dB scale so that they line up.
struct MeterGeometry: Equatable {
    /// Columns before the LEDs (the channel label).
    static let labelWidth = 3

    enum Numbers: Equatable {
        /// " rms  -18.2  pk   -6.1  CLIP" (below the floor reads "<-60"; the unit, dBFS, is on the scale line)
        case full
        /// " -18.2   -6.1!": two right-aligned six-column figures with a space between, so
        /// "-160.0 -160.0" never runs together
        case compact
        case none

        var width: Int {
            switch self {
            case .full: 28
            case .compact: 15
            case .none: 0
            }
        }
    }

    let numbers: Numbers
    let ledCount: Int
    let ledWidth: Int

    init(width: Int) {
        numbers = width >= 50 ? .full : width >= 28 ? .compact : .none
        let area = max(width - Self.labelWidth - numbers.width, 0)
        if area < 20 {
            ledCount = area
            ledWidth = 1
        } else {
            ledCount = max(20, area / 3)
            ledWidth = area / ledCount
        }
    }

    /// The compact numbers' text (13 columns; the clip mark goes at `compactClipOffset`).
    static func compactNumbers(_ first: String, _ second: String) -> String {
        " " + TextFitting.rightAligned(first, toWidth: 6) + " " + TextFitting.rightAligned(second, toWidth: 6)
    }

    /// Where the compact numbers' clip mark goes, from the start of the numbers.
    static let compactClipOffset = 14

    /// Columns the LEDs take.
    var cells: Int { ledCount * ledWidth }

    /// The level at or above which the top LED lights: full scale, where a sample clips
    /// (an Int16 sample of 32767 is −0.0003 dBFS).
    static let fullScale: Float = -0.001

    /// Where `decibels` sits on the row, 0…1: the meter scale's position, with the top LED
    /// kept for full scale, so that −1 dBFS and 0 dBFS light differently (below full scale the
    /// scale spans the other LEDs). Rows of fewer than 10 LEDs use the scale as it is. The LEDs,
    /// the scale's marks and the voice threshold's mark all place their levels with this.
    func position(forPower decibels: Float, on scale: MeterScale) -> Float {
        let value = scale.value(forPower: decibels)
        guard ledCount >= 10 else { return value }
        if decibels >= Self.fullScale { return 1 }
        return value * Float(ledCount - 1) / Float(ledCount)
    }
}
