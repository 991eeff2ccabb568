import CSndFile

/// Facts about the libsndfile this binary runs against.
public enum SoundFileLibrary {
    /// libsndfile's own version string, e.g. "libsndfile-1.2.0".
    public static var version: String {
        String(cString: sf_version_string())
    }
}
