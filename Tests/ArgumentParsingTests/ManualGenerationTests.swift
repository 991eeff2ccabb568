import Testing

@testable import ArgumentParsing

@Suite("Man page and completions")
struct ManualGenerationTests {
    enum Colour: String, CaseIterable, Sendable { case red, green }

    static let colour = Option<Colour>(name: "colour", valueName: "C", help: "A colour. More words.", parser: .choice)
    static let output = Option<String>(
        name: "output", shortName: "o", valueName: "PATH", help: "Where [it] goes: 'here'.",
        parser: ValueParser.nonEmptyText.completing(.file))
    static let memo = Positional<String>(
        name: "MEMO", help: "The memo.", parser: ValueParser.nonEmptyText.completing(.memo))

    static let program = ProgramDescription(
        name: "tool", version: "1.0", summary: "does -things", description: [".starts with a dot", "back\\slash"],
        globalOptions: [colour.specification],
        commands: [CommandSpecification(name: "paint", abstract: "Paint it. Then dry it.", options: [colour, output], positionals: [memo])],
        sections: [.init(title: "Files", entries: [(term: "~/.tool", text: "The state.")])],
        examples: [(command: "tool paint --colour red 3", text: "Paints memo 3 red.")],
        memoListingArguments: ["--list-memos"])

    @Test func completionKindsFollowTheParser() {
        #expect(Self.colour.specification.completion == .choices(["red", "green"]), "choice sets its choices")
        #expect(ValueParser.oneOf(["a", "b"]).map { $0 + "!" }.completion == .choices(["a", "b"]), "map keeps them")
        #expect(Self.output.specification.completion == .file)
        #expect(Self.memo.specification.completion == .memo)
        #expect(Flag(name: "json", help: "JSON.").specification.completion == .none)
        #expect(throws: ValueRejection.self) { try ValueParser.nonEmptyText.completing(.file).parse(" ") }
    }

    @Test func roffIsEscaped() {
        #expect(ManPage.escape("a-b") == "a\\-b")
        #expect(ManPage.escape("back\\slash") == "back\\eslash")
        #expect(ManPage.escape(".dot\n'quote") == "\\&.dot\n\\&'quote")
        let page = ManPage.render(Self.program, date: "2026-12-01")
        #expect(page.hasPrefix(".TH \"TOOL\" 1 \"2026\\-12\\-01\" \"tool 1.0\" \"User Commands\"\n.SH NAME\ntool \\- does \\-things\n"))
        #expect(page.contains("\n\\&.starts with a dot\n"), "a paragraph cannot become a roff request")
        #expect(page.contains(".SS \"tool paint [OPTIONS] MEMO\""))
        #expect(page.contains("\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIPATH\\fR"))
        #expect(page.contains("A colour. More words. One of: red, green."), "choices the help does not name are listed")
        #expect(page.contains(".SH FILES\n.TP\n\\fB~/.tool\\fR\nThe state.\n"))
        #expect(page.contains(".SH EXAMPLES\n.TP\n\\fBtool paint \\-\\-colour red 3\\fR\n"))
    }

    @Test func scriptsNameEveryOptionAndQuoteHelpText() {
        let bash = CompletionScript.render(Self.program, for: .bash)
        #expect(bash.contains("complete -F _tool tool"))
        #expect(bash.contains("--colour) _tool_value choices red green; return ;;"))
        #expect(bash.contains("--output|-o) _tool_value file; return ;;"))
        #expect(bash.contains("0) _tool_value memo ;;"))
        #expect(bash.contains("done < <(tool --list-memos 2>/dev/null)"))
        let zsh = CompletionScript.render(Self.program, for: .zsh)
        #expect(zsh.hasPrefix("#compdef tool\n"))
        #expect(zsh.contains("'(--output -o)--output=[Where \\[it\\] goes\\: '\\''here'\\'']:PATH:_files'"), "brackets, colons and quotes escaped")
        #expect(zsh.contains("'paint:Paint it'"), "one sentence per menu line")
        let fish = CompletionScript.render(Self.program, for: .fish)
        #expect(fish.contains("-l output -s o -r -F -d 'Where [it] goes: \\'here\\''"))
        #expect(fish.contains("-a '(__tool_memos)'"))
    }
}
