import Metering

/// A copy of a memo that `e` (export) wrote, as the status line reports it.
public struct ExportedCopy: Sendable, Equatable {
    /// The memo's title.
    public var title: String
    /// Where the copy is (a folder typed at the prompt has become the file in it).
    public var path: String
    /// The copy's integrated loudness in LUFS, when export normalised it.
    public var loudness: Double?
    /// The copy's true peak in dBTP, when export normalised it.
    public var truePeak: Double?

    public init(title: String, path: String, loudness: Double? = nil, truePeak: Double? = nil) {
        self.title = title
        self.path = path
        self.loudness = loudness
        self.truePeak = truePeak
    }

    /// `Exported “Standup” at -16.0 LUFS (true peak -1.2 dBTP) to /home/me/standup.m4a.`: the
    /// loudness before the path, which may be long, so a narrow status line keeps it.
    public var message: String {
        var how = ""
        if let loudness {
            how = " at \(Self.figure(loudness)) LUFS"
            if let truePeak { how += " (true peak \(Self.figure(truePeak)) dBTP)" }
        }
        return "Exported “\(title)”\(how) to \(path)."
    }

    /// One decimal: "-16.0", "-1.2".
    private static func figure(_ value: Double) -> String {
        DisplayFormat.decibels(Float(value), includingUnit: false)
    }
}
