import ArgumentParsing

/// `voicememo gain [--source alsa:NAME|pulse:NAME] [CHANGE] [--json]`: the input's capture volume.
enum GainCommand: SubcommandDefinition {
    static let change = Positional<GainChange>(
        name: "CHANGE",
        help: "+3dB or -3dB changes the level by that much, =-6dB sets it; 50% sets it within the "
            + "control's range (a sound server source: the server's own percentage), +5% or -5% "
            + "changes it; mute, unmute or toggle the capture switch (the source's mute). "
            + "Without CHANGE the level is printed.",
        isOptional: true, parser: gainChangeParser)
    static let json = Flag(
        name: "json",
        help: "Print one JSON object: device (the mixer, or the sound server's address), control, "
            + "percent, db, db_min, db_max (null without a dB scale), switch (null without one).")

    static let specification = CommandSpecification(
        name: "gain", abstract: "Show or set the capture volume of an input (its ALSA mixer control or server source).",
        discussion: "For alsa:NAME the control is found in the mixer behind the input: the card of "
            + "a hw:N,M (or plughw:, sysdefault:) device, else the device of the same name (pulse, "
            + "pipewire, default). Controls without a dB scale (PulseAudio's through ALSA) are "
            + "set in per cent. For pulse:NAME the sound server's own volume of the source is set, "
            + "in dB from -60 dB to +10.6 dB (150 %), every channel alike; below -60 dB in per "
            + "cent. Prints the state after any change.",
        options: [SharedArguments.source, json], positionals: [change])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> GainOptions {
        GainOptions(
            source: try arguments.value(of: SharedArguments.source), change: try arguments.value(of: change),
            json: arguments.isSet(json))
    }

    static func run(_ options: GainOptions, context: CommandContext) throws -> ExitCode {
        try GainRunner.run(options, context: context)
    }

    /// `+3dB`, `-3dB`, `=-6dB`, `50%`, `+5%`, `-5%`, `mute`, `unmute`, `toggle`.
    static let gainChangeParser = ValueParser<GainChange>(completion: .choices(["+1dB", "-1dB", "mute", "unmute", "toggle"])) {
        text throws(ValueRejection) in
        let allowed = "use +3dB, -3dB, =-6dB, 50%, +5%, -5%, mute, unmute or toggle"
        switch text.lowercased() {
        case "mute": return .mute
        case "unmute": return .unmute
        case "toggle": return .toggle
        default: break
        }
        var body = Substring(text)
        let absolute = body.first == "="
        if absolute { body = body.dropFirst() }
        let signed = body.first == "+" || body.first == "-"
        let lowered = body.lowercased()
        let isDecibels = lowered.hasSuffix("db")
        let isPercent = lowered.hasSuffix("%")
        guard isDecibels || isPercent, let number = Double(lowered.dropLast(isDecibels ? 2 : 1)), number.isFinite,
            abs(number) <= (isDecibels ? 200 : 100)
        else { throw .custom(problem: "is not a gain change", allowed: allowed) }
        if isDecibels {
            if absolute { return .toDecibels(number) }
            guard signed else {
                throw .custom(problem: "has no sign", allowed: "+3dB or -3dB change the level, =-6dB sets it")
            }
            return .byDecibels(number)
        }
        if absolute || !signed {
            guard number >= 0 else { throw .custom(problem: "is below 0%", allowed: "a level is 0% to 100%") }
            return .toPercent(number)
        }
        return .byPercent(number)
    }
}
