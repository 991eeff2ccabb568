import Foundation

/// The block of settings the app keeps at the end of the config file: a marker line, a note,
/// then `key = value` lines, one per setting changed in the app. Pure: text in, text out.
///
/// ```
/// # set in the app
/// # (VoiceMemo rewrites the lines below; your own lines above stay as they are)
/// meter.mode = vu
/// sort = title  # overrides sort above
/// ```
///
/// Everything before the marker line is the person's and is kept byte for byte, comments,
/// blank lines and line endings included. A key the person also set above is written in the
/// block all the same, and the block's value wins (`ConfigurationParser` lets the block
/// override the lines above it): the person's line stays as typed, and the block's line says
/// that it overrides it, so whoever reads the file sees which value holds. Below the marker
/// only `key = value` lines are kept; anything else there is the app's and is written anew.
enum AppSettingsBlock {
    /// The line that starts the block.
    static let marker = "# set in the app"
    /// The line after the marker.
    static let note = "# (VoiceMemo rewrites the lines below; your own lines above stay as they are)"

    /// Why a setting cannot be written into the file.
    enum Problem: Error, Equatable {
        /// The value holds a line break or another control character, or both a `"` and what
        /// needs quotes (the parser has no escapes).
        case unwritable(key: String, value: String)
    }

    /// `text` with `settings` in the app's block: a setting already in the block takes its new
    /// value where it stands, a new one goes at the end; the block is added at the end of the
    /// file when there is none. The block's lines end as the file's do (CR LF when the file
    /// uses it); the person's last line gets a line break before the block if it had none.
    ///
    /// - Throws: `Problem.unwritable` when a value cannot be written so that it reads back the same.
    static func edited(_ text: String, setting settings: [(key: String, value: String)]) throws(Problem) -> String {
        let lines = Self.lines(of: text)
        let markerIndex = lines.firstIndex { trimmed($0) == marker }
        let own = markerIndex.map { lines[..<$0] } ?? lines[...]
        var entries = markerIndex.map { entriesInBlock(lines[($0 + 1)...]) } ?? []
        for setting in settings {
            if let index = entries.firstIndex(where: { $0.key == setting.key }) {
                entries[index].value = setting.value
            } else {
                entries.append(setting)
            }
        }
        let ownText = own.joined()
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        let ownKeys = Set(own.compactMap(key(of:)))
        var block = marker + newline + note + newline
        for entry in entries {
            guard let value = written(entry.value) else { throw .unwritable(key: entry.key, value: entry.value) }
            let remark = ownKeys.contains(entry.key) ? "  # overrides \(entry.key) above" : ""
            block += "\(entry.key) = \(value)\(remark)\(newline)"
        }
        // Bytes, not characters: Swift reads CR LF as one character, which is not "\n".
        let ending = Array(ownText.utf8.suffix(3))
        var separator = ""
        if !ownText.isEmpty {
            if ending.last != UInt8(ascii: "\n") { separator += newline }
            // A blank line between the person's lines and the block, when it is first added.
            let endsBlank = ending.suffix(2) == [10, 10] || ending == [10, 13, 10]
            if markerIndex == nil, !endsBlank { separator += newline }
        }
        return ownText + separator + block
    }

    /// The value as a config line writes it: as it is, or in double quotes when it starts or
    /// ends with a space, starts with `"` or `#`, or holds a `#` after a space (which would start a
    /// comment); `nil` when it cannot be written so that `ConfigurationParser.value` reads it back.
    static func written(_ value: String) -> String? {
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        let needsQuotes = value.isEmpty || value.first == " " || value.last == " " || value.first == "\"" || value.first == "#"
            || value.contains(" #") || value.contains("\t#")
        guard needsQuotes else { return value }
        guard !value.contains("\"") else { return nil }
        return "\"" + value + "\""
    }

    /// The text's lines, each with its line break (`\n` or `\r\n`; the last may have none), so
    /// that joining them gives the text back exactly.
    private static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            current.append(byte)
            if byte == UInt8(ascii: "\n") {
                lines.append(String(decoding: current, as: UTF8.self))
                current = []
            }
        }
        if !current.isEmpty { lines.append(String(decoding: current, as: UTF8.self)) }
        return lines
    }

    private static func trimmed(_ line: String) -> String {
        line.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The key a `key = value` line sets; `nil` for comments, blank lines and anything else.
    private static func key(of line: String) -> String? {
        let content = trimmed(line)
        guard !content.hasPrefix("#"), let equals = content.firstIndex(of: "=") else { return nil }
        let name = content[..<equals].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// The block's settings in their order, each key once (its last value).
    private static func entriesInBlock(_ lines: ArraySlice<String>) -> [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = []
        for line in lines {
            guard let key = key(of: line), let equals = line.firstIndex(of: "="),
                case .success(let value) = ConfigurationParser.value(trimmed(String(line[line.index(after: equals)...])))
            else { continue }
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index].value = value
            } else {
                entries.append((key, value))
            }
        }
        return entries
    }
}
