import ArgumentParsing

/// `voicememo enhance MEMO [--json]`.
enum EnhanceCommand: SubcommandDefinition {
    static let specification = CommandSpecification(
        name: "enhance", abstract: "Suppress a memo's background noise, as a new memo.",
        discussion: "Runs the memo through SpeexDSP's noise suppressor (steady noise such as hiss, hum or "
            + "a fan 17 to 25 dB down in the pauses) and writes the result as a new memo with the same title, format and channels; "
            + "the original goes to Recently Deleted whole ('voicememo restore' brings it back). Works at "
            + "any rate from 8 to 384 kHz. Made for speech: steady tones in music are taken "
            + "for noise and turned down. Written as trim writes: an interrupted or failed enhance (a full "
            + "disk) leaves the original as it was. Markers stay where they were. Prints the new memo's id.",
        options: [SharedArguments.json], positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> EnhanceOptions {
        EnhanceOptions(memo: try arguments.requiredValue(of: SharedArguments.memo), json: arguments.isSet(SharedArguments.json))
    }

    static func run(_ options: EnhanceOptions, context: CommandContext) throws -> ExitCode {
        try EnhanceRunner.run(options, context: context)
    }
}
