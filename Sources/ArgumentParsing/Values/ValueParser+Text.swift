extension ValueParser where Value == String {
    /// Any text that is not empty or only white space; returned exactly as given.
    public static var nonEmptyText: ValueParser<String> {
        ValueParser { text throws(ValueRejection) in
            guard text.contains(where: { !$0.isWhitespace }) else { throw .emptyText }
            return text
        }
    }

    /// One of `choices`, spelled exactly.
    ///
    /// A refusal lists every choice and suggests the nearest one when it is close.
    public static func oneOf(_ choices: [String]) -> ValueParser<String> {
        ValueParser(completion: .choices(choices)) { text throws(ValueRejection) in
            guard choices.contains(text) else {
                throw .notAChoice(choices: choices, suggestion: Suggestion.nearest(to: text, among: choices))
            }
            return text
        }
    }
}

extension ValueParser
where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
    /// One of the cases of a string enumeration, spelled as its raw value, in declaration order.
    public static var choice: ValueParser<Value> {
        let choices = Value.allCases.map(\.rawValue)
        return ValueParser<String>.oneOf(choices).map { text throws(ValueRejection) in
            guard let value = Value(rawValue: text) else {
                throw .notAChoice(choices: choices, suggestion: nil)
            }
            return value
        }
    }
}
