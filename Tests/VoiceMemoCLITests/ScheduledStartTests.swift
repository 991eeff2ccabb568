import Foundation
import Testing

@testable import VoiceMemoCLI

/// `record --at TIME`: the next HH:MM[:SS], or a date and time, refused when past or unknown.
@Suite struct ScheduledStartTests {
    /// UTC, so that the expectations do not depend on the machine's zone.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// 2026-12-06 13:30:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_796_563_800)

    static func parse(_ text: String, now: Date = now, calendar: Calendar = calendar) throws(ScheduledStart.Problem) -> String {
        ScheduledStart.text(Date(timeIntervalSince1970: try ScheduledStart.parse(text, now: now, calendar: calendar).time), calendar)
    }

    @Test func aClockTimeIsTheNextOne() throws {
        #expect(ScheduledStart.text(Self.now, Self.calendar) == "2026-12-06 13:30:00")
        #expect(try Self.parse("14:00") == "2026-12-06 14:00:00", "later today")
        #expect(try Self.parse("14:00:30") == "2026-12-06 14:00:30")
        #expect(try Self.parse("9:05") == "2026-12-07 09:05:00", "already past today: tomorrow")
        #expect(try Self.parse("13:30") == "2026-12-07 13:30:00", "now is not ahead")
        #expect(try Self.parse(" 23:59:59 ") == "2026-12-06 23:59:59")
        // The last day of the year rolls into the next.
        let newYearsEve = Date(timeIntervalSince1970: 1_798_761_000)  // 2026-12-31 23:50:00 UTC
        #expect(try Self.parse("00:10", now: newYearsEve) == "2027-01-01 00:10:00")
    }

    @Test func aDateAndTimeIsThatMoment() throws {
        #expect(try Self.parse("2026-12-08T09:30") == "2026-12-08 09:30:00")
        #expect(try Self.parse("2026-12-08 09:30:15") == "2026-12-08 09:30:15")
        #expect(throws: ScheduledStart.Problem.inThePast(now: "2026-12-06 13:30:00")) { try Self.parse("2026-12-01T09:30") }
        #expect(throws: ScheduledStart.Problem.inThePast(now: "2026-12-06 13:30:00")) { try Self.parse("2026-12-06T13:30") }
    }

    @Test(arguments: ["", "14", "1400", "14:0", "24:00", "12:60", "12:00:60", "14:00:00:00", "2pm", "14h00", "2026-12-08", "26-12-08T09:30",
                      "2026-13-01T09:30", "2026/12/08T09:30", "١٤:٠٠", "14:00Z", "14:00 tomorrow"])
    func anythingElseIsRefusedNamingTheForms(text: String) {
        #expect(throws: ScheduledStart.Problem.self) { try Self.parse(text) }
    }

    @Test func aDayThatDoesNotExistIsNotMovedToAnother() {
        #expect(throws: ScheduledStart.Problem.noSuchDay) { try Self.parse("2027-02-30T09:00") }
        #expect(throws: ScheduledStart.Problem.noSuchDay) { try Self.parse("2027-04-31T09:00") }
        #expect(throws: ScheduledStart.Problem.noSuchDay) { try Self.parse("2027-00-10T09:00") }
    }

    /// In a zone with daylight saving, the hour the clock skips does not exist.
    @Test func aTimeTheClockSkipsIsRefused() throws {
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        #expect(throws: ScheduledStart.Problem.skippedByAClockChange) {
            try Self.parse("2027-03-28T02:30", calendar: berlin)
        }
        #expect(try Self.parse("2027-03-28T03:30", calendar: berlin) == "2027-03-28 03:30:00")
    }

    @Test func theCommandLineRefusesWhatCannotBeScheduled() {
        for (arguments, needle) in [
            (["record", "--at", "25:00"], "--at: \"25:00\" is not a time; use HH:MM or HH:MM:SS"),
            (["record", "--at", "2020-01-01T09:00"], "has passed (it is "),
            (["record", "--at", "14:00", "--delay", "5s"], "--at"),
            (["record", "--at", "14:00", "--vox"], "--vox"),
        ] {
            let outcome = runCommandLine(arguments)
            #expect(outcome.exitCode == .usageError && outcome.standardError.contains(needle), "\(arguments): \(outcome.standardError)")
        }
    }
}
