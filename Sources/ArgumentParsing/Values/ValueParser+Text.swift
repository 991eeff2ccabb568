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
    /// A refusal lists every choice and suggests the one meant: the choice spelled the same
    /// in another case, else the one `otherNames` gives for the text (another tool's name
    /// for it: `mp4` for `m4a`), else the nearest one when it is close.
    public static func oneOf(_ choices: [String], otherNames: [String: String] = [:]) -> ValueParser<String> {
        ValueParser(completion: .choices(choices)) { text throws(ValueRejection) in
            guard choices.contains(text) else {
                let folded = text.lowercased()
                let meant = choices.first { $0.lowercased() == folded } ?? otherNames[folded]
                throw .notAChoice(choices: choices, suggestion: meant ?? Suggestion.nearest(to: text, among: choices))
            }
            return text
        }
    }
}

extension ValueParser
where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
    /// One of the cases of a string enumeration, spelled as its raw value, in declaration order.
    public static var choice: ValueParser<Value> {
        choice(otherNames: [:])
    }

    /// `choice`, whose refusal of one of `otherNames` (lower case: another tool's name for a
    /// case) suggests the case it names.
    public static func choice(otherNames: [String: Value]) -> ValueParser<Value> {
        let choices = Value.allCases.map(\.rawValue)
        return ValueParser<String>.oneOf(choices, otherNames: otherNames.mapValues(\.rawValue)).map { text throws(ValueRejection) in
            guard let value = Value(rawValue: text) else {
                throw .notAChoice(choices: choices, suggestion: nil)
            }
            return value
        }
    }
}
