import Audio
import MemoLibrary
import SoundFiles
import Terminal
import Testing

@Suite struct LibraryVersionTests {
    @Test func alsaLibReportsAVersion() {
        #expect(ALSALibrary.version.split(separator: ".").count >= 2)
    }

    @Test func libsndfileReportsAVersion() {
        #expect(SoundFileLibrary.version.hasPrefix("libsndfile-"))
    }

    @Test func sqliteReportsAVersion() {
        #expect(SQLiteLibrary.version.hasPrefix("3."))
    }

    @Test func ncursesReportsAVersion() {
        #expect(CursesLibrary.version.hasPrefix("ncurses"))
    }
}
