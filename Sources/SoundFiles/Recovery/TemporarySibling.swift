import Foundation

/// The hidden files written beside a sound file before it is whole, named in one place: the
/// writers create them, recovery reads them, and the library recognises them among an
/// interrupted edit's leftovers. A name retyped elsewhere would drift from the one written.
public enum TemporarySibling: CaseIterable, Sendable {
    /// The W64 intermediate an `.intermediate` recording writes first: `.NAME.partial.w64`.
    case intermediate
    /// What that intermediate was meant to become (format, encoding, tags): `.NAME.partial.json`.
    case recipe
    /// An M4A while it is encoded, renamed over its target when closed: `.NAME.encoding.m4a`.
    case encoding

    /// What follows the target's name in the hidden file's name.
    public var suffix: String {
        switch self {
        case .intermediate: ".partial.w64"
        case .recipe: ".partial.json"
        case .encoding: ".encoding.m4a"
        }
    }

    /// `dir/.name<suffix>` for the target `dir/name`: hidden, so the library never adopts it.
    public func path(beside target: String) -> String {
        let url = URL(fileURLWithPath: target)
        let name = "." + url.lastPathComponent + suffix
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }
}
