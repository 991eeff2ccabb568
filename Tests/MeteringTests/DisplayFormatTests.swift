import Testing

@testable import Metering

@Suite struct DisplayFormatTests {
    @Test(arguments: [
        (0.0, "00:00:00"), (59.999, "00:00:59"), (197, "00:03:17"), (3_600, "01:00:00"),
        (359_999, "99:59:59"), (443_045, "123:04:05"), (-1, "00:00:00"), (.nan, "00:00:00"),
        (-.infinity, "00:00:00"), (.infinity, "00:00:00"),
    ])
    func elapsedTimeFromSeconds(seconds: Double, expected: String) {
        #expect(DisplayFormat.elapsedTime(seconds: seconds) == expected)
    }

    @Test func elapsedTimeSaturatesInsteadOfTrapping() {
        #expect(DisplayFormat.elapsedTime(seconds: 1e300) == DisplayFormat.elapsedTime(seconds: 1e15))
    }

    @Test(arguments: [
        (Int64(0), 48_000, "00:00:00"), (47_999, 48_000, "00:00:00"), (48_000, 48_000, "00:00:01"),
        (9_456_000, 48_000, "00:03:17"), (Int64(443_045) * 44_100, 44_100, "123:04:05"),
        (-48_000, 48_000, "00:00:00"), (48_000, 0, "00:00:00"), (48_000, -1, "00:00:00"),
        (.max, 8_000, "320255973501:54:06"),
    ])
    func elapsedTimeFromFrames(frames: Int64, sampleRate: Int, expected: String) {
        #expect(DisplayFormat.elapsedTime(frames: frames, sampleRate: sampleRate) == expected)
    }

    @Test(arguments: [
        (Int64(0), "0 B"), (999, "999 B"), (1_000, "1.0 kB"), (1_049, "1.0 kB"), (1_050, "1.1 kB"),
        (9_949, "9.9 kB"), (9_950, "10 kB"), (310_000, "310 kB"), (999_499, "999 kB"),
        (999_500, "1.0 MB"), (1_200_000, "1.2 MB"), (3_400_000_000, "3.4 GB"),
        (12_345_678_901_234, "12 TB"), (-5, "0 B"), (.max, "9.2 EB"),
    ])
    func byteCounts(bytes: Int64, expected: String) {
        #expect(DisplayFormat.byteCount(bytes) == expected)
    }

    @Test(arguments: [
        (Float(-18.2), "-18.2 dB"), (-18.25, "-18.3 dB"), (-6.04, "-6.0 dB"), (0, "0.0 dB"),
        (-0.0, "0.0 dB"), (-0.04, "0.0 dB"), (-0.05, "-0.1 dB"), (-160, "-160.0 dB"),
        (-500, "-160.0 dB"), (-.infinity, "-160.0 dB"), (.nan, "-160.0 dB"), (3.5, "3.5 dB"),
        (.infinity, "999.9 dB"),
    ])
    func decibels(level: Float, expected: String) {
        #expect(DisplayFormat.decibels(level) == expected)
    }

    @Test func decibelsWithoutUnit() {
        #expect(DisplayFormat.decibels(-6.1, includingUnit: false) == "-6.1")
    }

    @Test(arguments: [
        (30.38512471655329, "30.39 s"), (1.5, "1.5 s"), (5, "5 s"), (0, "0 s"), (0.004, "0 s"),
        (0.005, "0.01 s"), (59.999, "60 s"), (2.05, "2.05 s"), (-3, "0 s"), (.nan, "0 s"),
        (.infinity, "0 s"), (1e300, "1000000000000000 s"),
    ])
    func secondsForMessages(seconds: Double, expected: String) {
        #expect(DisplayFormat.seconds(seconds) == expected)
    }
}
