import TestSupport
import Testing

@testable import Interface

@Suite struct DroppedFileTests {
    @Test func oneFileIsNamedWithWhereItsTitleCameFrom() {
        #expect(
            DroppedFile.announcement([DroppedFile(fileName: "Podcast intro.mp3", title: "Garden idea", titleFromTags: true)])
                == "Added “Podcast intro.mp3” from the library folder as “Garden idea”, the title in its tags. Press e to rename it.")
        #expect(
            DroppedFile.announcement([DroppedFile(fileName: "Call.wav", title: "Call", titleFromTags: false)])
                == "Added “Call.wav” from the library folder.")
    }

    @Test func severalFilesAreCountedAndTheirTitlesListed() {
        let files = (1...5).map { DroppedFile(fileName: "f\($0).wav", title: "Take \($0)", titleFromTags: false) }
        #expect(DroppedFile.announcement(files) == "Added 5 files from the library folder: “Take 1”, “Take 2”, “Take 3”, ….")
    }

    @Test func theStatusLineSaysItAndRKeysStillWork() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .filesAdopted([DroppedFile(fileName: "a.wav", title: "a", titleFromTags: false)]))
        #expect(state.status?.text == "Added “a.wav” from the library folder.")
    }
}
