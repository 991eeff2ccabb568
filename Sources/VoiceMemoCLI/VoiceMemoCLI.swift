import Audio
import MemoLibrary
import SoundFiles
import Terminal

public enum VoiceMemoCLI {
    public static let version = "0.1.0"

    public static func libraryVersions() -> String {
        "alsa-lib \(ALSALibrary.version), \(SoundFileLibrary.version), \(CursesLibrary.version), SQLite \(SQLiteLibrary.version)"
    }
}
