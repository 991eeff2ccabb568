import Metering
import Testing
@testable import VoiceMemoCLI

/// `export --loudness LUFS [--true-peak DBTP]`: the target reaches the export's options, the
/// ceiling defaults to −1 dBTP, and what is out of range or alone is a usage error (exit 2)
/// naming the option, before anything runs.
@Suite struct ExportLoudnessParsingTests {
    static func parse(_ arguments: [String]) -> (ExportOptions?, CommandLineOutcome) {
        let (outcome, options) = parseCommandLine(ExportCommand.self, arguments)
        return (options, outcome)
    }

    @Test func theTargetAndItsDefaultCeilingReachTheExport() {
        #expect(Self.parse(["1", "x.mp3", "--loudness", "-16"]).0?.loudness == LoudnessTarget(integrated: -16, truePeak: -1))
        #expect(Self.parse(["1", "x.mp3", "--loudness", "-23LUFS", "--true-peak", "-2dBTP"]).0?.loudness
            == LoudnessTarget(integrated: -23, truePeak: -2))
        #expect(Self.parse(["1", "x.mp3"]).0?.loudness == nil, "without --loudness the copy is as it is")
    }

    @Test(arguments: [
        (["--loudness", "1"], "--loudness"), (["--loudness", "-70.5"], "--loudness"), (["--loudness", "nan"], "--loudness"),
        (["--loudness", "-16", "--true-peak", "0.1"], "--true-peak"), (["--loudness", "-16", "--true-peak", "-31"], "--true-peak"),
        (["--true-peak", "-1"], "--true-peak only works with --loudness"),
    ])
    func outOfRangeOrAloneIsAUsageError(flags: [String], named: String) {
        let (options, outcome) = Self.parse(["1", "x.flac"] + flags)
        #expect(options == nil)
        #expect(outcome.exitCode == .usageError, "\(outcome.standardError)")
        #expect(outcome.standardError.contains(named), "\(outcome.standardError)")
    }
}
