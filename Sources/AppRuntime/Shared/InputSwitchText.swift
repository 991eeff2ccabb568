import Audio
import Foundation

/// The words for an input that went away mid-recording and the one the recording went on
/// from (`InputSwitch`), as `record` prints them, the app says them and a memo's marker keeps them.
public enum InputSwitchText {
    /// "pulse:usb_mic went away; going on from pulse:vsink.monitor (the default source)
    /// after a gap of 0.12 s".
    public static func sentence(_ change: InputSwitch) -> String {
        "\(change.lost) went away; going on from \(change.continuedFrom) (the default source) after a gap of "
            + seconds(change.gapSeconds)
    }

    /// A marker's label: "pulse:usb_mic went away: 0.12 s gap, then pulse:vsink.monitor".
    public static func markerLabel(_ change: InputSwitch) -> String {
        "\(change.lost) went away: \(seconds(change.gapSeconds)) gap, then \(change.continuedFrom)"
    }

    /// The event log's line: "source_lost lost=pulse:usb_mic continued=pulse:vsink.monitor
    /// gap=0.120 after_frames=48000".
    public static func event(_ change: InputSwitch) -> String {
        "source_lost lost=\(change.lost) continued=\(change.continuedFrom) gap="
            + String(format: "%.3f", change.gapSeconds) + " after_frames=\(change.afterFrames)"
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.2f s", value)
    }
}
