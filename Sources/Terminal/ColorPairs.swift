import CNCursesW
import Interface

/// Colour pairs allocated as first used: (foreground, background) → pair number.
/// With 8 colours and the default (-1) there are at most 81 combinations; terminals with
/// fewer pairs get what fits and plain cells beyond.
struct ColorPairs {
    private var pairs: [Int: Int16] = [:]
    private let available: Int
    private let enabled: Bool

    init(enabled: Bool) {
        self.enabled = enabled
        available = enabled ? Int(voicememo_color_pairs()) : 0
    }

    /// The pair for `style`'s colours (0, the default, for none).
    mutating func pair(for style: Style) -> Int16 {
        guard enabled, style.foreground != nil || style.background != nil else { return 0 }
        let key = (style.foreground?.rawValue ?? -1) * 16 + (style.background?.rawValue ?? -1)
        if let pair = pairs[key] { return pair }
        let next = pairs.count + 1
        guard next < available, next < Int(Int16.max) else { return 0 }
        let pair = Int16(next)
        init_pair(pair, Int16(style.foreground?.rawValue ?? -1), Int16(style.background?.rawValue ?? -1))
        pairs[key] = pair
        return pair
    }
}
