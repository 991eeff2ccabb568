import Foundation
import Testing

/// `tag`, `star`, `unstar` and `list --tag/--starred/--json`, as a script sees them, and the
/// mistakes they refuse.
@Suite struct TagCommandTests {
    @Test func tagStarAndListThem() throws {
        let sandbox = try VoiceMemoSandbox()
        let standup = try sandbox.recordMemo(title: "Standup", format: "flac")
        let idea = try sandbox.recordMemo(title: "Idea", format: "wav")
        _ = try sandbox.recordMemo(title: "Song", format: "ogg")

        let tagged = try sandbox.run("tag", standup, "+Work", "+draft")
        #expect(tagged.status == 0, "\(tagged)")
        #expect(tagged.standardOutput == "\(standup)\n", "piped: the id")
        #expect(try sandbox.run("tag", "Idea", "+work", "+idea").status == 0, "MEMO as a title prefix")
        let removed = try sandbox.run("tag", standup, "-draft")
        #expect(removed.status == 0, "a -TAG word is not taken for an option: \(removed)")
        let shown = try sandbox.run("tag", standup)
        #expect(shown.status == 0 && shown.standardOutput == "work\n", "\(shown)")
        #expect(try sandbox.run("tag", idea).standardOutput == "work\nidea\n")

        #expect(try sandbox.run("star", "Idea").status == 0)
        #expect(try sandbox.run("star", standup).status == 0)
        #expect(try sandbox.run("unstar", standup).status == 0)
        #expect(try sandbox.run("star", "Song").status == 0)
        #expect(try sandbox.run("star", "Song", "--off").status == 0)

        let memos = try sandbox.listedMemos()
        func memo(_ id: String) -> [String: Any]? { memos.first { String(describing: $0["id"] ?? "") == id } }
        #expect(memo(standup)?["tags"] as? [String] == ["work"])
        #expect(memo(standup)?["starred"] as? Bool == false)
        #expect(memo(idea)?["tags"] as? [String] == ["work", "idea"])
        #expect(memo(idea)?["starred"] as? Bool == true)

        let work = try sandbox.run("list", "--json", "--tag", "work")
        #expect(Self.ids(work) == [idea, standup], "\(work)")
        #expect(Self.ids(try sandbox.run("list", "--json", "--tag", "work", "--tag", "IDEA")) == [idea], "every tag must match")
        #expect(Self.ids(try sandbox.run("list", "--json", "--starred")) == [idea])
        #expect(Self.ids(try sandbox.run("list", "--json", "--tag", "nothing")) == [])
        let human = try sandbox.run("list", "--starred")
        #expect(human.status == 0 && human.standardOutput.contains("★ Idea  #work #idea"), "\(human)")
    }

    @Test func tagsAndStarSurviveARebuiltIndex() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Kept", format: "flac")
        #expect(try sandbox.run("tag", id, "+work").status == 0)
        #expect(try sandbox.run("star", id).status == 0)
        for name in ["index.sqlite3", "index.sqlite3-wal", "index.sqlite3-shm"] {
            try? FileManager.default.removeItem(at: sandbox.libraryDirectory.appendingPathComponent(name))
        }
        let memos = try sandbox.listedMemos()
        #expect(memos.first?["tags"] as? [String] == ["work"], "\(memos)")
        #expect(memos.first?["starred"] as? Bool == true)
    }

    @Test(arguments: [
        ("+two words", "white space"), ("+bell\u{7}", "control character"), ("+", "cannot be empty"),
        ("+" + String(repeating: "x", count: 65), "at most 64"), ("work", "not both"),
    ])
    func badTagsAreUsageErrorsNamingTheRule(word: String, rule: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "Plain")
        let arguments = word == "work" ? ["tag", id, "+idea", word] : ["tag", id, word]
        let outcome = try sandbox.run(arguments: arguments)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains(rule), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("\u{7}"), "no raw control character reaches the terminal")
        #expect(try sandbox.listedMemos().first?["tags"] as? [String] == [])
    }

    @Test func aMemoThatIsNotThereIsTheUsualNotFound() throws {
        let sandbox = try VoiceMemoSandbox()
        _ = try sandbox.recordMemo(title: "Plain")
        let tag = try sandbox.run("tag", "9999", "+work")
        #expect(tag.status == 1, "\(tag)")
        #expect(tag.standardError.contains("no memo"), "\(tag.standardError)")
        let star = try sandbox.run("star", "Nothing like it")
        #expect(star.status == 1, "\(star)")
        #expect(star.standardError.contains("no memo"), "\(star.standardError)")
    }

    @Test func listWithABadTagIsAUsageError() throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("list", "--tag", "two words")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("white space"), "\(outcome.standardError)")
        let empty = try sandbox.run("list", "--tag=")
        #expect(empty.status == 2, "\(empty)")
    }

    @Test func listFilterTakesTheAppsTerms() throws {
        let sandbox = try VoiceMemoSandbox()
        let standup = try sandbox.recordMemo(title: "Standup", seconds: "0.5")
        let idea = try sandbox.recordMemo(title: "Idea", seconds: "0.2")
        #expect(try sandbox.run("tag", standup, "+work").status == 0)
        #expect(try sandbox.run("tag", idea, "+work").status == 0)
        #expect(try sandbox.run("star", idea).status == 0)
        #expect(Self.ids(try sandbox.run("list", "--json", "--filter", "tag:work longer:0.3s")) == [standup])
        #expect(Self.ids(try sandbox.run("list", "--json", "--filter", "tag:work is:starred")) == [idea])
        #expect(Self.ids(try sandbox.run("list", "--json", "--filter", "stand after:2000-01-01")) == [standup])
        #expect(Self.ids(try sandbox.run("list", "--json", "--filter", "before:2000-01-01")) == [])
        let bad = try sandbox.run("list", "--filter", "before:2026-13-45")
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.standardError.contains("before:2026-13-45 is not a date"), "\(bad.standardError)")
        let length = try sandbox.run("list", "--filter", "longer:soon")
        #expect(length.status == 2 && length.standardError.contains("is not a length"), "\(length)")
    }

    static func ids(_ outcome: ProcessOutcome) -> [String] {
        guard outcome.status == 0,
            let array = try? JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]]
        else { return ["failed: \(outcome)"] }
        return array.map { String(describing: $0["id"] ?? "") }
    }
}
