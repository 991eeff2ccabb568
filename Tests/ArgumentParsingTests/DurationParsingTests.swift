import Testing

@testable import ArgumentParsing

@Suite("Durations")
struct DurationParsingTests {
    @Test(
        "accepted forms",
        arguments: [
            ("90", Duration.seconds(90)),
            ("0", .zero),
            ("1.5", .milliseconds(1500)),
            ("1.5s", .milliseconds(1500)),
            ("250ms", .milliseconds(250)),
            ("0.1s", .milliseconds(100)),
            ("2m", .seconds(120)),
            ("2min", .seconds(120)),
            ("1.5m", .seconds(90)),
            ("1h", .seconds(3600)),
            ("01:30", .seconds(90)),
            ("1:02:03", .seconds(3723)),
            ("00:01.5", .milliseconds(1500)),
            ("0.000000001s", .nanoseconds(1)),
            ("100000h", .seconds(360_000_000)),
            ("-0", .zero),
            ("-0.0s", .zero),
            ("-00:00", .zero),
        ])
    func accepts(text: String, expected: Duration) throws {
        #expect(try ValueParser<Duration>.duration.parse(text) == expected)
    }

    @Test(
        "refused forms",
        arguments: [
            ("", ValueRejection.notADuration),
            ("1.5.2", .notADuration),
            ("10x", .notADuration),
            ("nan", .notADuration),
            ("inf", .notADuration),
            ("1e3", .notADuration),
            (".5", .notADuration),
            ("5.", .notADuration),
            ("s", .notADuration),
            (" 5", .notADuration),
            ("1:60", .notADuration),
            ("1:2:3:4", .notADuration),
            ("1.5:00", .notADuration),
            ("-1", .negativeDuration),
            ("-1.5s", .negativeDuration),
            ("-01:30", .negativeDuration),
            ("--0", .notADuration),
            ("100001h", .durationTooLong(maximum: .seconds(360_000_000))),
            ("99999999999999999999", .durationTooLong(maximum: .seconds(360_000_000))),
            ("9999999999999h", .durationTooLong(maximum: .seconds(360_000_000))),
        ])
    func refuses(text: String, expected: ValueRejection) {
        #expect(throws: expected) { try ValueParser<Duration>.duration.parse(text) }
    }
}
