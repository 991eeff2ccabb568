/// The status `voicememo` exits with: 0 done, 1 runtime failure, 2 usage error, 130 interrupted.
public struct ExitCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// 0: done.
    public static let success = ExitCode(rawValue: 0)
    /// 1: a runtime failure (device, disk, file).
    public static let failure = ExitCode(rawValue: 1)
    /// 1 too: a search that found nothing (`search`, as grep exits), so `if voicememo search …`
    /// works in a script.
    public static let nothingMatched = ExitCode(rawValue: 1)
    /// 2: a usage error (bad flag or value).
    public static let usageError = ExitCode(rawValue: 2)
    /// 130: interrupted before anything was kept.
    public static let interrupted = ExitCode(rawValue: 130)
}
