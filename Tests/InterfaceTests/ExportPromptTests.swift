import TestSupport
import Metering
import Testing

@testable import Interface

/// `E`: the export prompt. It proposes `folder/Title.ext` (the memo's own format), the typed
/// path goes to the runner as `exportMemo`, and what cannot be a file name keeps it open
/// with the reason.
@Suite struct ExportPromptTests {
    static func browsing(folder: String = "/home/ana") -> AppState {
        var state = Fixtures.state(width: 80, height: 24)
        state.exportFolder = folder
        return state
    }

    static func field(_ state: AppState) -> TextField? {
        guard case .exporting(_, let field) = state.mode else { return nil }
        return field
    }

    @Test func eProposesTheTitleInTheStartFolderInTheMemosFormat() {
        var state = Self.browsing()
        #expect(reduce(&state, .key(.character("E"))) == [])
        #expect(Self.field(state)?.text == "/home/ana/Standup notes.flac")
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.hasPrefix(" Export to: /home/ana/Standup notes.flac") }, "\(lines)")
        #expect(lines.last?.contains("⏎ export") == true && lines.last?.contains("Esc cancel") == true, "\(lines)")
        #expect(reduce(&state, .key(.enter)) == [.exportMemo(id: 1, path: "/home/ana/Standup notes.flac")])
        #expect(state.mode == .browsing)
        #expect(state.work.map(\.kind) == [.exporting(title: "Standup notes")], "tracked on the runner")
    }

    @Test func theTypedExtensionIsSentAsTyped() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        _ = reduce(&state, .key(.end))
        for _ in 0..<4 { _ = reduce(&state, .key(.backspace)) }
        for character in "wav" { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.enter)) == [.exportMemo(id: 1, path: "/home/ana/Standup notes.wav")])
    }

    /// The name part is selected, so typing replaces it and keeps the folder
    /// and the memo's extension; Ctrl-U clears the line; the footer says both.
    @Test func theNameIsSelectedTypingReplacesItAndCtrlUClears() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        let field = Self.field(state)
        #expect(field?.selection == 10..<23, "“Standup notes” in /home/ana/Standup notes.flac")
        let footer = AppView.render(state).lines().last ?? ""
        #expect(footer.contains("type renames") && footer.contains("^U clear") && footer.contains("^L -16 LUFS") && footer.contains("Tab complete"), "\(footer)")
        for character in "Weekly" { _ = reduce(&state, .key(.character(character))) }
        #expect(Self.field(state)?.text == "/home/ana/Weekly.flac")
        #expect(reduce(&state, .key(.enter)) == [.exportMemo(id: 1, path: "/home/ana/Weekly.flac")])

        _ = reduce(&state, .key(.character("E")))
        _ = reduce(&state, .key(.clearToStart))
        #expect(Self.field(state)?.text == "", "Ctrl-U clears the whole line, selection or not")
        for character in "/tmp/x.mp3" { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.enter)) == [.exportMemo(id: 1, path: "/tmp/x.mp3")])
    }

    @Test func theMemosOwnExtensionIsProposedAndOnlyTheNameSelected() {
        var memo = Fixtures.memo(9, "Call.v2", minutesAgo: 0, seconds: 1, size: 1)
        memo.fileShown = "/lib/2026-12-02_10-00-00_abcdef.m4a"
        #expect(ExportKeys.defaultPath(for: memo, in: "/h") == "/h/Call.v2.m4a")
        #expect(ExportKeys.nameRange(in: "/h/Call.v2.m4a") == 3..<10, "up to the last dot: the extension stays")
        #expect(ExportKeys.nameRange(in: "/h.d/name") == 5..<9, "a dot in the folder is not the extension's")
        #expect(ExportKeys.nameRange(in: "plain") == 0..<5)
    }

    /// Ctrl-L offers the podcast loudness (−16 LUFS, −1 dBTP): said in the prompt, sent with
    /// the export, kept for the next prompt, and off again with a second Ctrl-L.
    @Test func controlLOffersThePodcastLoudness() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        #expect(reduce(&state, .key(.control("l"))) == [])
        #expect(AppView.render(state).lines().contains { $0.hasPrefix(" Export at -16 LUFS to: /home/ana/") }, "\(AppView.render(state).lines())")
        #expect(Self.field(state)?.selection == 10..<23, "Ctrl-L leaves the path and its selection alone")
        #expect(AppView.render(state).lines().last?.contains("^L off") == true, "the footer says how to turn it off")
        #expect(reduce(&state, .key(.enter)) == [.exportMemo(id: 1, path: "/home/ana/Standup notes.flac", loudness: .podcast)])
        _ = reduce(&state, .key(.character("E")))
        #expect(AppView.render(state).lines().contains { $0.hasPrefix(" Export at -16 LUFS to: ") }, "the last used is kept")
        _ = reduce(&state, .key(.control("l")))
        #expect(AppView.render(state).lines().contains { $0.hasPrefix(" Export to: ") })
        #expect(reduce(&state, .key(.enter)) == [.exportMemo(id: 1, path: "/home/ana/Standup notes.flac")])
    }

    @Test func anEmptyPathKeepsThePromptOpenWithTheReason() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        state.mode = .exporting(id: 1, field: TextField("  "))
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(Self.field(state) != nil && state.promptProblem?.contains("Type the path") == true)
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("Type the path") }, "the reason shows above the prompt: \(lines)")
        _ = reduce(&state, .key(.character("a")))
        #expect(state.promptProblem == nil, "typing clears the reason")
        #expect(reduce(&state, .key(.escape)) == [])
        #expect(state.mode == .browsing && state.work.isEmpty, "Esc exports nothing")
    }

    /// A folder is written into (the library names the copy after the title), as the command
    /// line's `export MEMO FOLDER/` does.
    @Test func aFolderIsExportedInto() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        state.mode = .exporting(id: 1, field: TextField("/tmp/"))
        #expect(reduce(&state, .key(.enter)) == [.exportMemo(id: 1, path: "/tmp/", loudness: nil)])
        #expect(state.promptProblem == nil)
    }

    @Test func noMemoSaysSoAndAMemoGoneMeanwhileIsNotExported() {
        var empty = Fixtures.state(width: 80, height: 24, memos: [])
        #expect(reduce(&empty, .key(.character("E"))) == [])
        #expect(empty.mode == .browsing && empty.status?.text == "No memo to export.")

        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        _ = reduce(&state, .libraryLoaded(memos: Array(Fixtures.memos.dropFirst()), deleted: []))
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(state.status?.kind == .error && state.status?.text.contains("no longer in the library") == true)
    }

    @Test func aTitleBecomesOneVisibleFileName() {
        #expect(ExportKeys.fileName(for: "a/b") == "a-b")
        #expect(ExportKeys.fileName(for: "\u{1B}[2Jgotcha\u{7}") == "[2Jgotcha")
        #expect(ExportKeys.fileName(for: "..hidden") == "_.hidden")
        #expect(ExportKeys.fileName(for: " \u{202E} ") == "memo")
        #expect(ExportKeys.fileName(for: String(repeating: "x", count: 300)).count == 120)
        #expect(ExportKeys.fileName(for: "会議のメモ 🎤") == "会議のメモ 🎤")
        let memo = Fixtures.memo(9, "Lecture", minutesAgo: 0, seconds: 1, size: 1)
        #expect(ExportKeys.defaultPath(for: memo, in: "") == "Lecture.flac")
        #expect(ExportKeys.defaultPath(for: memo, in: "/") == "/Lecture.flac")
    }

    @Test func theExportKeyIsOnTheHelpScreenAndTheFooter() {
        #expect(KeyHelp.all.contains { $0.0 == "E" })
        #expect(KeyHelp.footer.contains { $0.0 == "E" })
    }

    /// What the status line says once the copy is written: the loudness (when normalised)
    /// before the path, which may be long, so a narrow line keeps it.
    @Test func theWrittenCopyIsReportedWithItsLoudnessBeforeItsPath() {
        #expect(ExportedCopy(title: "Standup", path: "/tmp/a.wav").message == "Exported “Standup” to /tmp/a.wav.")
        #expect(
            ExportedCopy(title: "Standup", path: "/tmp/a.m4a", loudness: -16.04, truePeak: -1.26).message
                == "Exported “Standup” at -16.0 LUFS (true peak -1.3 dBTP) to /tmp/a.m4a.")
        var state = Self.browsing()
        _ = reduce(&state, .exported(ExportedCopy(title: "Standup", path: "/tmp/a.wav", loudness: -23, truePeak: -0.08)))
        #expect(state.statusLine?.text == "Exported “Standup” at -23.0 LUFS (true peak -0.1 dBTP) to /tmp/a.wav.")
        #expect(state.statusLine?.kind == .info)
    }

    @Test func aRefusedPathComesBackToThePromptAsTyped() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        _ = reduce(&state, .key(.enter))
        #expect(state.mode == .browsing)
        _ = reduce(&state, .exportRefused(id: 1, typed: "~/no/such/x.flac", failure: .export(detail: "the folder /home/ana/no/such does not exist")))
        #expect(Self.field(state)?.text == "~/no/such/x.flac", "the path as typed, ~ included")
        #expect(state.promptProblem == "Cannot export: the folder /home/ana/no/such does not exist")
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("does not exist") } && lines.contains { $0.contains("Export to: ~/no/such/x.flac") }, "\(lines)")
    }

    @Test func aRefusalWhileAnotherPromptIsOpenIsSaidOnTheStatusLine() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("/")))
        let mode = state.mode
        _ = reduce(&state, .exportRefused(id: 1, typed: "/x/y.wav", failure: .exportTargetExists(path: "/x/y.wav")))
        #expect(state.mode == mode, "the other prompt is not taken away")
        #expect(state.status?.text.contains("already exists") == true, "\(state.status?.text ?? "")")
    }

    /// Tab completes the path as a shell does: the runner lists the folder, one match replaces
    /// the path, several extend it to what they share and are listed, an answer to a path typed
    /// on since is dropped.
    @Test func tabCompletesThePathAsAShellDoes() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        _ = reduce(&state, .key(.clearToStart))
        for character in "/home/ana/Mu" { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.tab)) == [.completeExportPath(id: 1, typed: "/home/ana/Mu")])
        _ = reduce(&state, .exportPathCompletions(id: 1, typed: "/home/ana/Mu", matches: ["/home/ana/Music/"]))
        #expect(Self.field(state)?.text == "/home/ana/Music/" && state.promptProblem == nil)
        _ = reduce(&state, .exportPathCompletions(id: 1, typed: "/home/ana/Mu", matches: ["/home/ana/Mu/"]))
        #expect(Self.field(state)?.text == "/home/ana/Music/", "an answer to an older path changes nothing")
        _ = reduce(&state, .exportPathCompletions(
            id: 1, typed: "/home/ana/Music/", matches: ["/home/ana/Music/take 1.wav", "/home/ana/Music/take 2.wav", "/home/ana/Music/takes/"]))
        #expect(Self.field(state)?.text == "/home/ana/Music/take", "extended to what the three share")
        #expect(state.promptProblem == "3 matches: take 1.wav  take 2.wav  takes/")
        _ = reduce(&state, .exportPathCompletions(id: 1, typed: "/home/ana/Music/take", matches: []))
        #expect(state.promptProblem == "Nothing there starts with “take”.")
        #expect(Self.field(state)?.text == "/home/ana/Music/take")
    }
}
