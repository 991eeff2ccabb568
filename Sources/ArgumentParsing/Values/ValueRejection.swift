/// Why a value was refused, with what is needed to say what would have been allowed.
///
/// The words a person reads are written in one place, ``UsageError/message``.
public enum ValueRejection: Error, Equatable, Sendable {
    /// The text is not a whole number; `allowed` is the accepted range.
    case notAWholeNumber(allowed: ClosedRange<Int>)
    /// A whole number outside `allowed`.
    case wholeNumberOutOfRange(allowed: ClosedRange<Int>)
    /// The text is not a decimal number; `allowed` is the accepted range, in `unit` if any.
    case notANumber(allowed: ClosedRange<Double>, unit: String?)
    /// A decimal number outside `allowed`.
    case numberOutOfRange(allowed: ClosedRange<Double>, unit: String?)
    /// The text is none of `choices`; `suggestion` is the nearest choice, if one is close.
    case notAChoice(choices: [String], suggestion: String?)
    /// The text is not a duration in any accepted form.
    case notADuration
    /// A duration below zero.
    case negativeDuration
    /// A duration longer than `maximum`.
    case durationTooLong(maximum: Duration)
    /// The text is not a sample rate; `allowed` is the accepted range in Hz.
    case notASampleRate(allowed: ClosedRange<Int>)
    /// A sample rate outside `allowed`.
    case sampleRateOutOfRange(allowed: ClosedRange<Int>)
    /// Empty or only white space where text is needed.
    case emptyText
    /// A refusal worded by the command itself: `problem` follows the quoted value
    /// (`is not a tone`), `allowed` says what would work (`use tone:FREQ@DBFS, e.g. …`).
    case custom(problem: String, allowed: String)
}
