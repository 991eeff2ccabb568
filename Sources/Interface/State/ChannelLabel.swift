import Vocabulary

/// A channel's name on the meter, the one the app's LED rows and `voicememo meter` share:
/// "M" for mono, "L" and "R" for stereo, numbers beyond ("+" past the ninth); a meeting's
/// channels "M" for the microphone's and "D" for the desktop's.
public enum ChannelLabel {
    /// - Parameter input: The input the channels come from, when it is what the meter shows
    ///   (not while a memo plays).
    public static func name(_ channel: Int, of count: Int, input: InputName? = nil) -> String {
        if input == .meeting, count == 2 || count == 4 { return channel < count / 2 ? "M" : "D" }
        return switch count {
        case 1: "M"
        case 2: channel == 0 ? "L" : "R"
        default: channel < 9 ? "\(channel + 1)" : "+"
        }
    }
}
