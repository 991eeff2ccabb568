import Foundation
import Testing

/// An input chosen in the picker that does not open leaves the input that was open: its meter
/// goes on, and the status line names both.
@Suite struct AppTmuxInputSwitchTests {
    @Test func aChoiceThatDoesNotOpenKeepsTheInputThatWasOpen() throws {
        let sandbox = try VoiceMemoSandbox()
        // A device ALSA lists (it has a hint) on a card that does not exist.
        let broken = sandbox.file("broken.conf")
        try """
            pcm.vm_broken {
                type hw
                card 97
                hint { show on description "A microphone that is not there" }
            }
            """.write(toFile: broken, atomically: true, encoding: .utf8)
        let app = try AppTmuxSession(
            sandbox: sandbox, arguments: "--source tone:440@-20",
            environment: "ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:\(broken)")
        _ = try app.waitForStart("Listening to tone:440@-20")
        try app.press("i")
        var screen = try app.waitFor("alsa:vm_broken")
        let rows = screen.split(separator: "\n").map(String.init)
        let current = try #require(rows.firstIndex { $0.contains("tone:440@-20") && $0.contains("now") }, "\(screen)")
        let target = try #require(rows.firstIndex { $0.contains("alsa:vm_broken") }, "\(screen)")
        for _ in 0..<(target - current) { try app.press("Down") }
        try app.press("Enter")
        screen = try app.waitFor("Still listening to tone:440@-20: ")
        #expect(screen.contains("ALSA 'vm_broken' cannot be opened"), "\(screen)")
        #expect(screen.contains("input: tone:440@-20"), "the header keeps the input: \(screen)")
        // The meter still moves: the tone's −20 dBFS peak.
        screen = try app.waitFor("pk  -20.0")
        try app.press("r")
        screen = try app.waitFor("● REC")
        try app.press("s")
        _ = try app.waitFor("Title: Memo ")
        try app.press("Enter")
        _ = try app.waitFor("Saved")
        try app.press("q")
        _ = try app.waitFor("END", timeout: 30)
        #expect(try sandbox.listedMemos().count == 1)
    }
}
