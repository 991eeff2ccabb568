/// Turns the text of one command-line value into a typed value, or says why it cannot.
///
/// The library ships parsers for whole numbers in a range (``integer(in:)``), decimal numbers
/// such as decibels (``number(in:unit:)``), durations (``duration``), sample rates
/// (``sampleRate(in:)``), fixed choices (``oneOf(_:)``, ``choice``) and non-empty text
/// (``nonEmptyText``). Commands build their own with ``init(_:)`` or ``map(_:)``.
public struct ValueParser<Value>: Sendable {
    private let conversion: @Sendable (String) throws(ValueRejection) -> Value
    /// What a shell may offer for the value; ``oneOf(_:)`` and ``choice`` set their choices.
    public let completion: ValueCompletion

    /// Creates a parser from a conversion that throws a ``ValueRejection`` for refused text.
    public init(
        completion: ValueCompletion = .none,
        _ conversion: @escaping @Sendable (String) throws(ValueRejection) -> Value
    ) {
        self.conversion = conversion
        self.completion = completion
    }

    /// The same parser, with `completion` offered for its value.
    public func completing(_ completion: ValueCompletion) -> ValueParser<Value> {
        ValueParser(completion: completion, conversion)
    }

    /// Converts `text`.
    ///
    /// - Throws: ``ValueRejection`` saying what is wrong and what is allowed.
    public func parse(_ text: String) throws(ValueRejection) -> Value {
        try conversion(text)
    }

    /// A parser that converts with this one, then transforms or checks the result.
    public func map<Result>(
        _ transform: @escaping @Sendable (Value) throws(ValueRejection) -> Result
    ) -> ValueParser<Result> {
        let conversion = self.conversion
        return ValueParser<Result>(completion: completion) { text throws(ValueRejection) in
            try transform(try conversion(text))
        }
    }
}
