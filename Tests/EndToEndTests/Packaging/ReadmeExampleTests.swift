import Foundation
import Testing

/// The README's and the user guide's examples work as written (its example
/// config was refused), and their links lead somewhere.
@Suite struct ReadmeExampleTests {
    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `path` (from the package's folder) as text.
    static func document(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The fenced blocks of `path`, without their fences.
    static func codeBlocks(_ path: String) throws -> [String] {
        let parts = try document(path).components(separatedBy: "```")
        return stride(from: 1, to: parts.count, by: 2).map { part in
            let block = parts[part]
            // Drop the info string (`sh`) on the fence's line.
            return block.firstIndex(of: "\n").map { String(block[block.index(after: $0)...]) } ?? block
        }
    }

    /// Checks that every `--flag` on the block's `voicememo COMMAND …` lines is in that
    /// command's `--help`; returns how many flags it checked.
    static func expectFlagsAreTheCommands(_ block: String) throws -> Int {
        var command: String?
        var checked = 0
        for line in block.split(separator: "\n") {
            // A comment after the command (`# one memo per utterance`) is not part of it.
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = code.split(whereSeparator: { $0 == " " || $0 == "[" || $0 == "]" || $0 == "|" })
            if words.first == "voicememo", words.count > 1 { command = String(words[1]) }
            guard let command else { continue }
            let help = try VoiceMemoSandbox().run(command, "--help")
            #expect(help.status == 0, "voicememo \(command) --help: \(help)")
            // A second command on the same line (`delete MEMO   voicememo restore MEMO`).
            let more = words.dropFirst(2).split(separator: "voicememo")
            for (part, flags) in more.enumerated() {
                let name = part == 0 ? command : String(flags.first ?? "")
                let text = part == 0 ? help.standardOutput : try VoiceMemoSandbox().run(name, "--help").standardOutput
                for flag in flags where flag.hasPrefix("--") {
                    #expect(text.contains(String(flag)), "voicememo \(name) --help does not list \(flag)")
                    checked += 1
                }
            }
        }
        return checked
    }

    @Test func theExampleConfigIsAcceptedAndTakesEffect() throws {
        let config = try #require(try Self.codeBlocks("docs/USER-GUIDE.md").first { $0.hasPrefix("# ~/.config/voicememo/config") })
        let sandbox = try VoiceMemoSandbox()
        try sandbox.writeConfig(config)
        sandbox.environment["VOICEMEMO_UNPACED"] = "1"
        // The flag overrides the example's alsa:default (no sound card here); the rest is the example's.
        let outcome = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.3", "--json")
        #expect(outcome.status == 0, "\(outcome)")
        let memo = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(memo["format"] as? String == "wav")
        #expect(memo["encoding"] as? String == "pcm24")
        #expect(memo["sample_rate"] as? Int == 44_100)
        #expect(memo["channels"] as? Int == 1)
        let meter = try sandbox.run("meter", "--source", "tone:440@-6", "--duration", "0.2")
        #expect(meter.status == 0, "meter reads the same config: \(meter)")
    }

    @Test func everyFlagInTheScriptingSynopsisIsOneTheCommandTakes() throws {
        let synopsis = try #require(try Self.codeBlocks("docs/USER-GUIDE.md").first { $0.hasPrefix("voicememo record [") })
        let checked = try Self.expectFlagsAreTheCommands(synopsis)
        #expect(checked > 20, "the synopsis was found and read: \(checked) flags")
    }

    /// The README's five examples: every flag is one its command takes.
    @Test func everyFlagInTheReadmesExamplesIsOneTheCommandTakes() throws {
        let examples = try #require(try Self.codeBlocks("README.md").first { $0.hasPrefix("voicememo ") })
        let commands = examples.split(separator: "\n").filter { $0.hasPrefix("voicememo ") }
        #expect(commands.count == 5, "five examples: \(examples)")
        let checked = try Self.expectFlagsAreTheCommands(examples)
        #expect(checked >= 5, "the examples were found and read: \(checked) flags")
    }

    /// Every relative link of the README and the user guide reaches a file, and a link with a
    /// `#fragment` a heading of that file (GitHub's anchors: lower case, punctuation dropped,
    /// spaces as hyphens): the README points into the guide for everything it left out.
    @Test func theReadmesAndTheGuidesLinksReachTheirFilesAndHeadings() throws {
        var checked = 0
        for page in ["README.md", "docs/USER-GUIDE.md"] {
            let folder = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
            let text = try Self.document(page)
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let link = String(match.output.1)
                guard !link.contains("://") else { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = parts[0].isEmpty ? page : (folder == "." ? "" : folder + "/") + parts[0]
                let target = try? Self.document(file)
                #expect(target != nil, "\(page) links to \(link): no file \(file)")
                if let target, parts.count == 2 {
                    #expect(Self.anchors(target).contains(String(parts[1])), "\(page) links to \(link): no such heading in \(file)")
                }
                checked += 1
            }
        }
        #expect(checked > 20, "the links were found: \(checked)")
    }

    /// The anchors GitHub gives a Markdown file's headings.
    static func anchors(_ markdown: String) -> Set<String> {
        Set(markdown.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            return String(title.compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            })
        })
    }
}
