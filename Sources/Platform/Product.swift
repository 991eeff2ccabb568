/// The product's name and version, as files and `--version` carry them.
public enum Product {
    public static let version = "0.1.0"
    /// The software tag written into every file the product records (`SoundMetadata.software`).
    public static let software = "VoiceMemo \(version)"
}
