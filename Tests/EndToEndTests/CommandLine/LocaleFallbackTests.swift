import Foundation
import Testing

/// With `LANG=C` / `LC_ALL=C` (a locale that is not UTF-8) the command line
/// wrote its quotes, dashes and meter glyphs in UTF-8. Now its own symbols are ASCII; titles,
/// paths and JSON come back as they are (a script run from cron, with no locale, gets the path
/// it gave).
@Suite struct LocaleFallbackTests {
    static let symbols: [Character] = ["“", "”", "‘", "’", "—", "–", "×", "→", "←", "…", "█", "▒", "░", "─", "▶"]

    @Test(arguments: [["LANG": "C"], ["LC_ALL": "C", "LANG": "C.UTF-8"], ["LANG": "POSIX"]])
    func theCommandLineWritesItsSymbolsInASCII(locale: [String: String]) throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Café “quoted”")
        sandbox.environment.merge(locale) { _, new in new }

        let missing = try sandbox.run("analyze", "nosuch")
        #expect(missing.status != 0)
        #expect(missing.standardError.contains("no file or memo named \"nosuch\""), "\(missing)")
        let list = try sandbox.run("list")
        #expect(list.status == 0, "\(list)")
        #expect(list.standardOutput.contains("Café \"quoted\""), "the title's own letters stay, the quotes are ASCII: \(list)")
        let json = try sandbox.run("list", "--json")
        #expect(json.standardOutput.contains(#""title": "Café “quoted”""#), "JSON is UTF-8 and exact: \(json)")
        let output = sandbox.file("Sortie é.wav")
        let record = try sandbox.run("record", "--source", "tone:440@-6", "--duration", "0.2", "--output", output)
        #expect(record.status == 0, "\(record)")
        #expect(record.standardOutput.trimmingCharacters(in: .newlines) == output, "the path as given: \(record)")

        for outcome in [missing, list, record] {
            let text = outcome.standardOutput + outcome.standardError
            let found = text.filter { Self.symbols.contains($0) }
            #expect(found.isEmpty, "UTF-8 symbols under \(locale): \(String(found)) in \(text)")
        }
    }

    @Test func underAUTF8LocaleTheSymbolsStay() throws {
        let sandbox = try VoiceMemoSandbox()
        let missing = try sandbox.run("analyze", "nosuch")
        #expect(missing.standardError.contains("no file or memo named “nosuch”"), "\(missing)")
    }
}
