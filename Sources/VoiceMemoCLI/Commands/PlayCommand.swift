import ArgumentParsing

/// `voicememo play MEMO [--device D] [--from T]`: play a memo.
enum PlayCommand: SubcommandDefinition {
    static let device = Option<String>(
        name: "device", valueName: "D", help: "The ALSA playback device.",
        defaultDescription: "default", parser: .nonEmptyText)
    static let start = Option<Duration>(
        name: "from", valueName: "T", help: "Start T into the memo.", parser: .duration)
    static let speed = Option<Double>(
        name: "speed", valueName: "X", help: "Play X times as fast, the pitch kept: 0.5 to 3 (1.5, 2x).",
        defaultDescription: "1", parser: suffixed(.number(in: 0.5...3), by: ["x", "×"]))
    static let pitch = Option<Double>(
        name: "pitch", valueName: "SEMITONES", help: "Shift the pitch, the speed kept: -12 to 12 semitones.",
        defaultDescription: "0", parser: .number(in: -12...12, unit: "semitones"))
    static let volume = Option<Double>(
        name: "volume", valueName: "PERCENT",
        help: "The volume, 0 to 150 (50, 120%); above 100 can clip, and says how often it did.",
        defaultDescription: "100", parser: suffixed(.number(in: 0...150, unit: "%"), by: ["%"]))
    static let skipSilence = Flag(
        name: "skip-silence", help: "Skip pauses longer than a quarter second; says how much was skipped.")

    static let specification = CommandSpecification(
        name: "play", abstract: "Play a memo.",
        discussion: "With --speed, --pitch, --volume or --skip-silence the memo is decoded to floating "
            + "point and processed (SoundTouch for speed and pitch); without them it plays sample for "
            + "sample as it is stored.",
        options: [device, start, speed, pitch, volume, skipSilence],
        positionals: [SharedArguments.memo])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> PlayOptions {
        PlayOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo),
            device: try arguments.value(of: device),
            start: try arguments.value(of: start),
            speed: try arguments.value(of: speed),
            pitch: try arguments.value(of: pitch),
            volume: try arguments.value(of: volume),
            skipsSilence: arguments.isSet(skipSilence))
    }

    /// `parser`, also accepting the value followed by one of `suffixes` (`2x`, `120%`).
    static func suffixed(_ parser: ValueParser<Double>, by suffixes: [String]) -> ValueParser<Double> {
        ValueParser { text throws(ValueRejection) in
            let trimmed = suffixes.first(where: { text.hasSuffix($0) && text.count > $0.count })
                .map { String(text.dropLast($0.count)) } ?? text
            return try parser.parse(trimmed)
        }
    }

    static func implementation(in implementations: CommandImplementations) -> CommandImplementation<PlayOptions>? {
        implementations.play
    }
}
