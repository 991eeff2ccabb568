/// A command line that cannot be run as given, with the detail needed to say why.
///
/// The parser and the commands throw these; ``message`` turns each into the one line a person
/// reads. Names of options appear as typed in full (`--rate`), values exactly as given.
public enum UsageError: Error, Equatable, Sendable {
    /// The first word is not a subcommand; `suggestion` is the nearest one, if close.
    case unknownCommand(String, suggestion: String?)
    /// An option the command does not declare; `suggestion` is the nearest one (`--rate`).
    case unknownOption(String, suggestion: String?)
    /// An option that takes a value came last, or was followed by another option.
    case missingValue(option: String, valueName: String)
    /// A flag was given a value with `--flag=value`.
    case unexpectedValue(flag: String, value: String)
    /// A value the option's or positional's parser refused.
    case invalidValue(argument: String, value: String, rejection: ValueRejection)
    /// The same option was given twice.
    case repeatedOption(String)
    /// A positional argument beyond those the command takes.
    case unexpectedArgument(String)
    /// A required positional argument, named by its placeholder (`MEMO`), is missing.
    case missingArgument(String)
    /// `option` only makes sense together with `requirement`, which is missing.
    case missingCompanion(option: String, requirement: String)
    /// Two arguments that cannot be given together.
    case conflictingArguments(String, String)
    /// None of several alternatives was given, and the command needs one.
    case missingAlternative([String])
}
