import Foundation
import Testing

/// `voicememo --at TIME --duration T`: the app's header counts down to the start, the
/// recording starts by itself at the time and stops and saves after its duration.
@Suite struct AppTmuxScheduledStartTests {
    @Test func theAppStartsAtTheTimeAndStopsAfterTheDuration() throws {
        let sandbox = try VoiceMemoSandbox()
        sandbox.environment["TZ"] = "UTC"
        let target = (Date().timeIntervalSince1970 + 10).rounded(.up)
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss"
        let at = formatter.string(from: Date(timeIntervalSince1970: target))
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source tone:440@-12 --at \(at) --duration 2")
        var screen = try app.waitForStart("Listening to tone:440@-12")
        #expect(screen.contains("starts \(at) in"), "the header counts down: \(screen)")
        screen = try app.waitFor("Recording starts at \(at) for 00:00:02; r starts it now, s cancels.", timeout: 4)
        #expect(screen.contains("Recording starts at \(at) for 00:00:02; r starts it now, s cancels."), "once the input's notice was read: \(screen)")
        screen = try app.waitUntil(timeout: 15) { $0.contains("● REC") }
        let started = Date().timeIntervalSince1970
        #expect(started >= target - 0.3 && started <= target + 1, "started \(started - target) s from the time asked")
        screen = try app.waitFor("Title: Memo ", timeout: 15)
        try app.press("Enter")
        screen = try app.waitFor("Saved")
        try app.press("q")
        _ = try app.waitFor("END", timeout: 30)
        let memo = try #require(try sandbox.listedMemos().first)
        let duration = try #require(memo["duration"] as? Double)
        #expect(abs(duration - 2) < 0.2, "stopped after its duration: \(memo)")
    }

    @Test func aDurationWithoutAtAndATimeThatHasPassedAreUsageErrors() throws {
        let sandbox = try VoiceMemoSandbox()
        let alone = try sandbox.run("--duration", "5")
        #expect(alone.status == 2 && alone.standardError.contains("--duration") && alone.standardError.contains("--at"), "\(alone)")
        let past = try sandbox.run("--at", "2020-01-01T10:00")
        #expect(past.status == 2 && past.standardError.contains("has passed"), "\(past)")
        let nonsense = try sandbox.run("--at", "teatime")
        #expect(nonsense.status == 2 && nonsense.standardError.contains("is not a time"), "\(nonsense)")
    }
}
