/// How long a memo stays in Recently Deleted, and how that is said: for the library's purge,
/// `list --deleted` and the app's Recently Deleted alike.
public enum RecentlyDeleted {
    /// Seconds a memo stays in Recently Deleted before it is purged: 30 days.
    public static let lifetime: Double = 30 * 24 * 3600

    /// Whole days left before a memo deleted at `deletedAt` is purged (rounded up: "1 day" until
    /// the last moment, 0 when it is due) at `now`, both in seconds since 1970.
    public static func daysUntilPurge(deletedAt: Double, now: Double) -> Int? {
        let left = deletedAt - now + lifetime
        return left.isFinite ? max(0, Int((left / 86_400).rounded(.up))) : nil
    }

    /// "29 days left", "1 day left", "due": for Recently Deleted lists; "" for a memo that is not
    /// deleted (`deletedAt` `nil`).
    public static func purgeText(deletedAt: Double?, now: Double) -> String {
        switch deletedAt.flatMap({ daysUntilPurge(deletedAt: $0, now: now) }) {
        case nil: ""
        case 0?: "due"
        case 1?: "1 day left"
        case let days?: "\(days) days left"
        }
    }
}
