import TestSupport
import Testing

@testable import Interface

/// The memo table's help lists its keys under headings (Record, Play, Edit, Library, Input,
/// App), in two columns on a wide screen, each description whole: wrapped, never cut.
@Suite struct HelpGroupsTests {
    private static let headings = ["Record", "Play", "Edit", "Library", "Input", "App"]

    /// The help's lines as drawn, without the `|` ends.
    private func helpText(width: Int, height: Int) -> [String] {
        AppView.render(Fixtures.state(width: width, height: height, [.key(.character("?"))])).lines()
    }

    /// `text` with every run of spaces one space.
    private func collapsed(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    @Test func everyKeyOfTheMemoTableHasAGroupAndEveryGroupHasKeys() {
        for binding in KeyTable.memoTable {
            #expect(binding.group != nil, "\(binding.label) has no group: the help would list it under none")
        }
        for group in KeyGroup.allCases {
            #expect(KeyTable.memoTable.contains { $0.group == group }, "\(group.title) has no key: an empty heading")
        }
        #expect(KeyGroup.allCases.map(\.title) == Self.headings)
    }

    @Test func theHelpHasAHeadingPerGroupInOrder() {
        let lines = helpText(width: 80, height: 100).map { collapsed(String($0.filter { $0 != "|" })) }
        let found = lines.filter { Self.headings.contains($0) }
        #expect(found == Self.headings, "\(lines.joined(separator: "\n"))")
    }

    @Test(arguments: [80, 100])
    func noDescriptionIsCutInOneColumn(width: Int) {
        let text = collapsed(String(helpText(width: width, height: 200).joined(separator: " ").map { $0 == "|" ? " " : $0 }))
        for (label, description) in KeyHelp.all {
            #expect(text.contains(collapsed(description)), "\(label) at \(width) columns: “\(description)” is cut")
        }
    }

    @Test func aWideScreenShowsTwoColumnsAndWrapsWithinThem() {
        let state = Fixtures.state(width: 120, height: 40, [.key(.character("?"))])
        let help = HelpLayout(state)
        #expect(help.columns == 2, "120 columns hold two")
        // Each description, its wrapped lines put together, is whole in its column.
        var described: [String] = []
        var current: String?
        for line in help.lines.joined() {
            switch line {
            case .heading:
                if let current { described.append(current) }
                current = nil
            case .entry(let keys, let text):
                #expect(DisplayWidth.of(text) <= help.textWidth, "\(text)")
                if keys.isEmpty, let line = current {
                    current = line + " " + text
                } else {
                    if let current { described.append(current) }
                    current = text
                }
            }
        }
        if let current { described.append(current) }
        #expect(Set(described) == Set(KeyHelp.all.map(\.1)))
        let rendered = helpText(width: 120, height: 40).joined()
        #expect(rendered.contains("Record") && rendered.contains("App"))
    }

    @Test func aNarrowScreenStillWrapsAtWords() {
        #expect(HelpLayout.wrap("label the marker at the play head", toWidth: 16) == ["label the marker", "at the play head"])
        #expect(HelpLayout.wrap("abcdefgh", toWidth: 3) == ["abc", "def", "gh"], "a word longer than the line is broken")
        #expect(HelpLayout.wrap("fits", toWidth: 10) == ["fits"])
    }

    @Test func anotherScreensHelpIsOneUntitledList() {
        #expect(KeyScreen.recentlyDeleted.helpSections.count == 1)
        #expect(KeyScreen.recentlyDeleted.helpSections.first?.title == nil)
    }
}
