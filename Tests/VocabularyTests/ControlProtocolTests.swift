import Testing
import Vocabulary

/// The control socket's lines: requests parsed and refused by rule, replies written and read
/// back, and the socket's and log's names.
@Suite struct ControlProtocolTests {
    @Test func everyRequestReadsBackFromItsLine() {
        let requests: [ControlRequest] = [.status, .toggle, .pause, .stop, .mark(label: ""), .mark(label: "good idea")]
        for request in requests {
            #expect(ControlRequest.parse(request.line) == .success(request))
        }
        #expect(ControlRequest.parse("mark") == .success(.mark(label: "")))
        #expect(ControlRequest.parse("toggle\r") == .success(.toggle), "a line from a client that ends lines in CRLF")
        #expect(ControlRequest.parse("mark  two spaces") == .success(.mark(label: "two spaces")))
    }

    @Test func unknownAndEmptyRequestsNameWhatIsUnderstood() throws {
        let unknown = try #require(failure(of: "record now"))
        #expect(unknown == .unknown("record"))
        #expect(unknown.message == "unknown request “record”; the requests are status, toggle, pause, stop and mark [LABEL]")
        #expect(failure(of: "") == .empty)
        #expect(failure(of: "STOP") == .unknown("STOP"), "requests are lower case")
        #expect(failure(of: "stop now") == .unexpectedText(request: "stop"))
        #expect(failure(of: "\u{1B}[2J") == .unknown("␛[2J"), "an unknown word is quoted safe for a terminal")
    }

    @Test func aLabelOverSixtyFourCharactersIsRefusedNamingTheRule() throws {
        let longest = String(repeating: "é", count: 64)
        #expect(ControlRequest.parse("mark " + longest) == .success(.mark(label: longest)))
        let refused = try #require(failure(of: "mark " + longest + "x"))
        #expect(refused == .labelTooLong(characters: 65))
        #expect(refused.message == "a marker's label is at most 64 characters (this one has 65)")
    }

    @Test func aLabelWithControlCharactersIsRefusedNamingTheRule() throws {
        for label in ["tab\there", "bell\u{7}", "esc\u{1B}[31m", "c1\u{9B}2J", "del\u{7F}"] {
            let refused = try #require(failure(of: "mark " + label))
            #expect(refused == .labelHasControlCharacters)
            #expect(refused.message.contains("no control characters"))
        }
        #expect(ControlRequest.checkLabel("plain words, ünïcode ✓") == nil)
    }

    @Test func repliesReadBackFromTheirLines() {
        let replies: [ControlReply] = [
            .ok("paused memo 3 at 4.20 s"), .error("nothing is recording"),
            .status(ControlStatus(process: .record, state: .recording, elapsed: 12.5, pid: 4242, memo: 7, title: "Standup notes")),
            .status(ControlStatus(process: .app, state: .idle, elapsed: 0, pid: 1)),
            .status(ControlStatus(process: .app, state: .paused, elapsed: 3.25, pid: 9, memo: 1, title: "a=b title=c")),
        ]
        for reply in replies {
            #expect(ControlReply.parse(reply.line) == reply, "\(reply.line)")
        }
    }

    @Test func aStatusLineHasItsFieldsInOrderAndTheTitleLast() {
        let status = ControlStatus(process: .record, state: .paused, elapsed: 61.234, pid: 77, memo: 5, title: "two\nlines")
        #expect(ControlReply.status(status).line == "ok status process=record state=paused elapsed=61.23 pid=77 memo=5 title=two lines")
        #expect(ControlReply.error("one\ntwo").line == "error one two", "a reply is one line")
    }

    @Test func linesThatAreNoReplyAreNotReadAsOne() {
        #expect(ControlReply.parse("hello") == nil)
        #expect(ControlReply.parse("ok status process=radio state=recording elapsed=1 pid=1") == nil)
        #expect(ControlReply.parse("ok status state=recording elapsed=1 pid=1") == nil, "process is required")
        #expect(ControlReply.parse("ok status process=app state=idle elapsed=x pid=1") == nil)
    }

    @Test func theSocketsNameComesFromTheWholePath() {
        let name = ControlPaths.name(libraryFolder: "/home/ann/.local/share/voicememo")
        #expect(name.hasPrefix("voicememo-"))
        #expect(name.count == "voicememo-".count + 16)
        #expect(name == ControlPaths.name(libraryFolder: "/home/ann/.local/share/voicememo"), "stable")
        #expect(name != ControlPaths.name(libraryFolder: "/home/bob/.local/share/voicememo"), "two libraries never share one")
        #expect(ControlPaths.name(libraryFolder: "/srv/my memos!/..x").hasPrefix("library..x-"), "kept characters only, never a hidden file")
        #expect(ControlPaths.name(libraryFolder: "/").hasPrefix("root-"))
    }

    @Test func theFoldersFollowXDGWithFallbacks() {
        #expect(ControlPaths.socketFolder(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"], uid: 1000) == "/run/user/1000/voicememo")
        #expect(ControlPaths.socketFolder(environment: [:], uid: 1000) == "/tmp/voicememo-1000")
        #expect(ControlPaths.socketFolder(environment: ["XDG_RUNTIME_DIR": "relative"], uid: 5) == "/tmp/voicememo-5", "XDG paths are absolute")
        #expect(ControlPaths.stateFolder(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/voicememo")
        #expect(ControlPaths.stateFolder(environment: ["HOME": "/h"]) == "/h/.local/state/voicememo")
        #expect(ControlPaths.stateFolder(environment: [:]) == nil)
    }

    private func failure(of line: String) -> ControlRequestError? {
        if case .failure(let problem) = ControlRequest.parse(line) { return problem }
        return nil
    }
}
