/// A channel's name on the meter, the one the app's LED rows and `voicememo meter` share:
/// "M" for mono, "L" and "R" for stereo, numbers beyond ("+" past the ninth).
public enum ChannelLabel {
    public static func name(_ channel: Int, of count: Int) -> String {
        switch count {
        case 1: "M"
        case 2: channel == 0 ? "L" : "R"
        default: channel < 9 ? "\(channel + 1)" : "+"
        }
    }
}
