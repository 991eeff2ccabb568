/// A refused combination of recording settings.
///
/// The message names what is wrong and what would work, in command-line terms, e.g.
/// "Ogg Opus records at 8000, 12000, 16000, 24000 or 48000 Hz, not 44100 Hz; use --rate 48000 or --format flac".
public struct SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
