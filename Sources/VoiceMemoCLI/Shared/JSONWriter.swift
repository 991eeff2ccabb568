#if canImport(Glibc)
import Glibc
#endif

/// Builds JSON text as UTF-8 bytes in one growing buffer: the one place that escapes strings and
/// formats numbers for every JSON the commands print.
///
/// `list --json` at 10 000 memos writes 3 MB; building it through a tree of `JSONValue`s and
/// `String` appends took most of the command's time (see docs/PERFORMANCE.md, "Memo library").
/// Appending bytes here, with numbers and dates formatted by hand, does not allocate per value.
struct JSONWriter {
    /// The text so far.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The text so far, as a `String`.
    var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Appends text that needs no escaping (punctuation, keys known to be plain).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func null() {
        raw("null")
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// Appends a whole number in decimal.
    mutating func int(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        appendDigits(value.magnitude, minimumCount: 1)
    }

    /// Appends `value` as `number(_:)` does, or `null` when there is none.
    mutating func optionalNumber(_ value: Double?) {
        if let value {
            number(value)
        } else {
            null()
        }
    }

    /// Appends a number rounded to 0.001 (what a meter or a duration can mean), without a `-0`;
    /// `null` for NaN and infinities, which JSON cannot hold.
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            null()
            return
        }
        let thousandths = (value * 1000).rounded()
        guard abs(thousandths) < 1e15 else {
            // Beyond what thousandths hold exactly: whole, or Swift's shortest round-trip text.
            let rounded = thousandths / 1000
            if rounded == rounded.rounded(), abs(rounded) < 1e15 {
                int(Int64(rounded))
            } else {
                bytes.append(contentsOf: String(rounded).utf8)
            }
            return
        }
        // A decimal with at most three fraction digits is the shortest text of `rounded` below
        // 1e12, so this matches `String(rounded)` without its cost.
        let milli = Int64(thousandths)
        if milli == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if milli < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        let magnitude = milli.magnitude
        appendDigits(magnitude / 1000, minimumCount: 1)
        var fraction = magnitude % 1000
        guard fraction != 0 else { return }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        bytes.append(UInt8(ascii: "."))
        appendDigits(fraction, minimumCount: digits)
    }

    /// Appends a quoted string. Quote, backslash, C0 controls, DEL and C1 controls are escaped,
    /// so no terminal control sequence survives into the output.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { appendQuoted($0) }
    }

    /// A date as `2026-11-29T14:03:12Z` (UTC, whole seconds), in quotes.
    mutating func date(_ secondsSince1970: Double) {
        var seconds = time_t(secondsSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        bytes.append(UInt8(ascii: "\""))
        appendDigits(UInt64(clamping: Int(parts.tm_year) + 1900), minimumCount: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(UInt64(clamping: Int(parts.tm_mon) + 1), minimumCount: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(UInt64(clamping: Int(parts.tm_mday)), minimumCount: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(UInt64(clamping: Int(parts.tm_hour)), minimumCount: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(UInt64(clamping: Int(parts.tm_min)), minimumCount: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(UInt64(clamping: Int(parts.tm_sec)), minimumCount: 2)
        raw("Z\"")
    }

    // MARK: Helpers

    /// Appends `value` in decimal, left-padded with zeros to `minimumCount` digits (at most 20).
    private mutating func appendDigits(_ value: UInt64, minimumCount: Int) {
        var remaining = value
        var count = 0
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            } while remaining > 0
            while count < minimumCount, count < 20 {
                buffer[19 - count] = UInt8(ascii: "0")
                count += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // C1 controls (U+0080…U+009F) are the only multi-byte sequences to escape; they start with 0xC2.
        var plainStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            let needsEscape = byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
            let isC1 = byte == 0xC2 && index + 1 < utf8.count && (0x80..<0xA0).contains(utf8[index + 1])
            guard needsEscape || isC1 else {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<index]))
            if isC1 {
                appendUnicodeEscape(UInt32(utf8[index + 1]))
                index += 2
            } else {
                switch byte {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default: appendUnicodeEscape(UInt32(byte))
                }
                index += 1
            }
            plainStart = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<utf8.count]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// `\u00XX` for a code point below U+0100.
    private mutating func appendUnicodeEscape(_ value: UInt32) {
        raw("\\u00")
        for nibble in [value >> 4, value & 0xF] {
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + UInt8(nibble) : UInt8(ascii: "a") + UInt8(nibble - 10))
        }
    }
}
