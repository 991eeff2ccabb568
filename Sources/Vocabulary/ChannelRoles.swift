/// Whose voice each channel of a meeting memo carries: the microphone's channels (the person
/// recording, "Me") and the desktop's (the others in the call, "Them").
///
/// A joined input (`pulse:A+pulse:B`, `meeting`) records A's channels first, then B's; A is
/// the microphone. Two channels are the microphone left and the desktop right; four are the
/// microphone in 1–2 and the desktop in 3–4. Channels count from 0 here and from 1 in the text
/// form (`mic 1-2, desktop 3-4`), which the index and the memo's file comment store.
public struct ChannelRoles: Sendable, Hashable, CustomStringConvertible {
    /// The microphone's channels, from 0.
    public let microphone: Range<Int>
    /// The desktop's channels, from 0.
    public let desktop: Range<Int>

    /// The roles of two groups of channels; `nil` unless both are non-empty, apart and
    /// within `0..<128`.
    public init?(microphone: Range<Int>, desktop: Range<Int>) {
        guard !microphone.isEmpty, !desktop.isEmpty, microphone.lowerBound >= 0, desktop.lowerBound >= 0,
            microphone.upperBound <= 128, desktop.upperBound <= 128, !microphone.overlaps(desktop)
        else { return nil }
        self.microphone = microphone
        self.desktop = desktop
    }

    /// The roles of a joined recording of `channels` channels: each input's half; `nil` for a
    /// count a joined input does not record (it records 2 or 4).
    public init?(joinedChannels channels: Int) {
        guard channels == 2 || channels == 4 else { return nil }
        self.init(microphone: 0..<(channels / 2), desktop: (channels / 2)..<channels)
    }

    /// The channel count a memo needs for these roles.
    public var channelCount: Int { max(microphone.upperBound, desktop.upperBound) }

    /// The channels of `speaker`.
    public func channels(of speaker: Speaker) -> Range<Int> {
        speaker == .me ? microphone : desktop
    }

    /// The text form: `mic 1, desktop 2`, `mic 1-2, desktop 3-4` (channels from 1).
    public var description: String {
        "mic " + Self.text(microphone) + ", desktop " + Self.text(desktop)
    }

    /// Reads the text form; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ",").map { $0.split(separator: " ").map(String.init) }
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, parts[0][0] == "mic",
            parts[1][0] == "desktop", let microphone = Self.range(parts[0][1]), let desktop = Self.range(parts[1][1])
        else { return nil }
        self.init(microphone: microphone, desktop: desktop)
    }

    private static func text(_ channels: Range<Int>) -> String {
        channels.count == 1 ? String(channels.lowerBound + 1) : "\(channels.lowerBound + 1)-\(channels.upperBound)"
    }

    private static func range(_ text: String) -> Range<Int>? {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 1 || ends.count == 2, let first = Int(ends[0]), let last = Int(ends[ends.count - 1]),
            first >= 1, last >= first
        else { return nil }
        return (first - 1)..<last
    }
}

extension InputName {
    /// The channel roles of a recording of `channels` channels from this input: a joined
    /// input's (the first input is the microphone), `nil` for any other input.
    public func channelRoles(channels: Int) -> ChannelRoles? {
        guard case .joined = self else { return nil }
        return ChannelRoles(joinedChannels: channels)
    }
}
