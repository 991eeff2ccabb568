import CALSA
import Glibc

/// One PCM device ALSA knows by name, as `arecord -L` lists it.
public struct ALSADeviceInfo: Sendable, Hashable {
    /// The name to open, e.g. "default", "pulse", "sysdefault:CARD=PCH".
    public var name: String
    /// The human description; may span lines (card name, then device name).
    public var description: String
    /// The directions it works in (both when ALSA gives no IOID hint).
    public var streams: Set<ALSAStream>

    public init(name: String, description: String, streams: Set<ALSAStream>) {
        self.name = name
        self.description = description
        self.streams = streams
    }
}

extension ALSADeviceInfo {
    /// The helper PCMs that alsa-lib and its plugins (libasound2-plugins) list beside the
    /// devices: rate converters (`lavrate`, `samplerate`, `speexrate`), channel mixers
    /// (`upmix`, `vdownmix`), a software mixer (`dmix`), DSP (`speex`) and `null`, which
    /// discards what it is given and captures silence. Each opens, but the converters and
    /// mixers wrap another device the list offers anyway (`default`, mostly), and none is an
    /// input of its own: a picker of inputs leaves them out (`--source alsa:NAME` opens them).
    public static let helperPlugins: Set<String> = ["null", "lavrate", "samplerate", "speexrate", "speex", "upmix", "vdownmix", "dmix"]

    /// Whether this is one of `helperPlugins` (by the name before any `:ARGS`).
    public var isHelperPlugin: Bool {
        Self.helperPlugins.contains(String(name.prefix { $0 != ":" }))
    }
}

/// The PCM devices of the global ALSA configuration.
public enum ALSADevices {
    /// The devices usable for `stream`, in ALSA's order, from `snd_device_name_hint`
    /// (NAME, DESC and IOID hints, like `arecord -L` / `aplay -L`).
    ///
    /// Devices defined without a `hint` section (such as test devices from an extra
    /// configuration file) are not listed, as with arecord. Empty when ALSA
    /// cannot list anything.
    public static func list(stream: ALSAStream) -> [ALSADeviceInfo] {
        ALSAErrorCapture.install()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var devices: [ALSADeviceInfo] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            guard let name = value(of: "NAME", in: hint) else { continue }
            let streams: Set<ALSAStream> =
                switch value(of: "IOID", in: hint) {
                case "Input": [.capture]
                case "Output": [.playback]
                default: [.capture, .playback]
                }
            guard streams.contains(stream) else { continue }
            devices.append(
                ALSADeviceInfo(name: name, description: value(of: "DESC", in: hint) ?? "", streams: streams))
        }
        return devices
    }

    private static func value(of id: String, in hint: UnsafeRawPointer) -> String? {
        guard let text = snd_device_name_get_hint(hint, id) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }
}
