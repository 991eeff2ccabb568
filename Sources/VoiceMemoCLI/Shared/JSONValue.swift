/// A JSON value that keeps the order of object keys, for output that people read
/// as well as scripts (`list --json`, `meter --json`, `record --json`).
enum JSONValue: Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral {
    case null
    case bool(Bool)
    case int(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(Int64(value)) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }

    /// Compact serialisation on one line.
    var serialized: String {
        var writer = JSONWriter()
        write(into: &writer)
        return writer.text
    }

    /// Appends the value to `writer`: `", "` between elements, `": "` after keys.
    func write(into writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .int(let value): writer.int(value)
        case .number(let value): writer.number(value)
        case .string(let value): writer.string(value)
        case .array(let values):
            writer.raw("[")
            for (index, value) in values.enumerated() {
                if index > 0 { writer.raw(", ") }
                value.write(into: &writer)
            }
            writer.raw("]")
        case .object(let members):
            writer.raw("{")
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { writer.raw(", ") }
                writer.string(key)
                writer.raw(": ")
                value.write(into: &writer)
            }
            writer.raw("}")
        }
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized == rhs.serialized
    }
}
