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
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .number(let value):
            if value.isFinite {
                // Round to what a meter can mean (0.001 dB, 1 µs) and drop a "-0".
                let rounded = (value * 1000).rounded() / 1000
                out += rounded == 0 ? "0" : (rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded))
            } else {
                out += "null"
            }
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += ", " }
                value.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += ", " }
                Self.writeString(key, into: &out)
                out += ": "
                value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, into out: inout String) {
        out += "\""
        // Fast path: nothing to escape (no quote, backslash, C0, DEL, and no C1, whose UTF-8 starts with 0xC2).
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 }) {
            out += value
            out += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized == rhs.serialized
    }
}
