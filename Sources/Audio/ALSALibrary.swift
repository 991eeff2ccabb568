import CALSA

/// Facts about the alsa-lib this binary runs against.
public enum ALSALibrary {
    /// alsa-lib's version, e.g. "1.2.8".
    public static var version: String {
        String(cString: snd_asoundlib_version())
    }
}
