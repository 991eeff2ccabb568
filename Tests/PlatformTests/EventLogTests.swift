import Foundation
import Platform
import TestSupport
import Testing

/// `VOICEMEMO_EVENT_LOG`: one `NAME UNIX-SECONDS` line a moment, appended; nothing without it.
@Suite struct EventLogTests {
    @Test func eachNoteIsOneLineAppendedToTheNamedFile() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-event-log")
        let path = directory.file("events.log")
        try "earlier 1.000000\n".write(toFile: path, atomically: true, encoding: .utf8)
        let log = try #require(EventLog(environment: ["VOICEMEMO_EVENT_LOG": path]))
        log.note("first_frame", at: 1_795_960_992.25)
        log.note("recorded 4800", at: 1_795_960_992.5)
        log.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "earlier 1.000000\nfirst_frame 1795960992.250000\nrecorded 4800 1795960992.500000\n")
    }

    @Test func withoutTheVariableOrAWritableFileThereIsNoLog() throws {
        #expect(EventLog(environment: [:]) == nil)
        #expect(EventLog(environment: ["VOICEMEMO_EVENT_LOG": ""]) == nil)
        let directory = try TemporaryDirectory(prefix: "voicememo-event-log")
        #expect(EventLog(environment: ["VOICEMEMO_EVENT_LOG": directory.file("missing/events.log")]) == nil)
    }
}
