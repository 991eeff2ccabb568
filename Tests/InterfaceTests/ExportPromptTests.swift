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
        for _ in 0..<4 { _ = reduce(&state, .key(.backspace)) }
        for character in "wav" { _ = reduce(&state, .key(.character(character))) }
        #expect(reduce(&state, .key(.enter)) == [.exportMemo(id: 1, path: "/home/ana/Standup notes.wav")])
    }

    @Test func anEmptyPathOrAFolderKeepsThePromptOpenWithTheReason() {
        var state = Self.browsing()
        _ = reduce(&state, .key(.character("E")))
        state.mode = .exporting(id: 1, field: TextField("  "))
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(Self.field(state) != nil && state.promptProblem?.contains("Type the path") == true)
        state.mode = .exporting(id: 1, field: TextField("/tmp/"))
        #expect(reduce(&state, .key(.enter)) == [])
        #expect(state.promptProblem?.contains("That is a folder") == true)
        let lines = AppView.render(state).lines()
        #expect(lines.contains { $0.contains("That is a folder") }, "the reason shows above the prompt: \(lines)")
        _ = reduce(&state, .key(.character("a")))
        #expect(state.promptProblem == nil, "typing clears the reason")
        #expect(reduce(&state, .key(.escape)) == [])
        #expect(state.mode == .browsing && state.work.isEmpty, "Esc exports nothing")
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
}
