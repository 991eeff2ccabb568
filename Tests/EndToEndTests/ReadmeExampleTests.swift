import Foundation
import Testing

/// The README's examples work as written (issue 15 item 12: its example config was refused).
@Suite struct ReadmeExampleTests {
    static func readme() throws -> String {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The fenced blocks of the README, without their fences.
    static func codeBlocks() throws -> [String] {
        let parts = try readme().components(separatedBy: "```")
        return stride(from: 1, to: parts.count, by: 2).map { part in
            let block = parts[part]
            // Drop the info string (`sh`) on the fence's line.
            return block.firstIndex(of: "\n").map { String(block[block.index(after: $0)...]) } ?? block
        }
    }

    @Test func theExampleConfigIsAcceptedAndTakesEffect() throws {
        let config = try #require(try Self.codeBlocks().first { $0.hasPrefix("# ~/.config/voicememo/config") })
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
        let synopsis = try #require(try Self.codeBlocks().first { $0.hasPrefix("voicememo record [") })
        var command: String?
        var checked = 0
        for line in synopsis.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "[" || $0 == "]" || $0 == "|" })
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
        #expect(checked > 20, "the synopsis was found and read: \(checked) flags")
    }
}
