import ArgumentParsing
import Testing
@testable import VoiceMemoCLI

@Suite("Failures")
struct FailureTests {
    @Test func theEntryPointReportsUsageErrors() {
        let captured = CapturedText()
        let status = VoiceMemoCLI.main(["voicememo", "record", "--rate", "abc"], environment: [:], console: captured.console)
        #expect(status == 2)
        #expect(captured.standardError.hasPrefix("voicememo: --rate: \"abc\""))
    }

    @Test func failuresCarryTheirExitCode() {
        let delete = runSubcommand(
            Subcommand(specification: DeleteCommand.specification, perform: { _, _ in throw CommandFailure("no memo matches 'x'") }),
            ["x"])
        #expect(delete.exitCode == .failure)
        #expect(delete.standardError == "voicememo: no memo matches 'x'\n")
        let restore = Subcommand(
            specification: RestoreCommand.specification,
            perform: { _, _ in throw CommandFailure("interrupted", exitCode: .interrupted) })
        #expect(runSubcommand(restore, ["x"]).exitCode == .interrupted)
        let list = runSubcommand(
            Subcommand(
                specification: ListCommand.specification,
                perform: { _, _ in throw UsageError.conflictingArguments("--json", "--deleted") }),
            [])
        #expect(list.exitCode == .usageError)
        #expect(list.standardError.hasSuffix("Run 'voicememo list --help' for usage.\n"))
        let devices = runSubcommand(
            Subcommand(
                specification: DevicesCommand.specification,
                perform: { _, context in
                    context.console.printLine("hw:0")
                    return .interrupted
                }),
            [])
        #expect(devices.exitCode.rawValue == 130)
        #expect(devices.standardOutput == "hw:0\n")
    }
}
