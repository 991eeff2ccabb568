/// A Vorbis comment list (the tags of Ogg Vorbis, Ogg Opus and FLAC): a vendor string and
/// `NAME=value` entries, each a little-endian length and UTF-8 bytes. Vorbis packets wrap it
/// in a magic and a framing bit, FLAC's VORBIS_COMMENT block holds it bare.
///
/// Markers are stored as the chapter extension players read (foobar2000, VLC, mpv's
/// `--chapters`): `CHAPTER001=00:01:02.345` and `CHAPTER001NAME=label`.
struct VorbisComments: Equatable {
    /// The vendor string's bytes as they were.
    var vendor: [UInt8]
    /// The entries' bytes, in order.
    var entries: [[UInt8]]

    /// Reads the list at the start of `bytes`; with the number of bytes it took. `nil` if malformed.
    static func parse(_ bytes: ArraySlice<UInt8>) -> (VorbisComments, length: Int)? {
        var position = bytes.startIndex
        func uint32() -> Int? {
            guard position + 4 <= bytes.endIndex else { return nil }
            let value = (0..<4).reduce(0) { $0 | Int(bytes[position + $1]) << (8 * $1) }
            position += 4
            return value
        }
        guard let vendorLength = uint32(), position + vendorLength <= bytes.endIndex else { return nil }
        let vendor = Array(bytes[position..<(position + vendorLength)])
        position += vendorLength
        guard let count = uint32(), count <= bytes.count / 4 else { return nil }
        var entries: [[UInt8]] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = uint32(), position + length <= bytes.endIndex else { return nil }
            entries.append(Array(bytes[position..<(position + length)]))
            position += length
        }
        return (VorbisComments(vendor: vendor, entries: entries), position - bytes.startIndex)
    }

    /// The list's bytes.
    var bytes: [UInt8] {
        var result = Self.littleEndian(vendor.count) + vendor + Self.littleEndian(entries.count)
        for entry in entries { result += Self.littleEndian(entry.count) + entry }
        return result
    }

    private static func littleEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// The entry's name, upper-cased (names are case-insensitive ASCII).
    private static func name(of entry: [UInt8]) -> String? {
        guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        return String(decoding: entry[..<equals], as: UTF8.self).uppercased()
    }

    private static func value(of entry: [UInt8]) -> String {
        guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { return "" }
        return String(decoding: entry[(equals + 1)...], as: UTF8.self)
    }

    // MARK: The title

    /// With its TITLE entries replaced by one holding `title` (put first when there was none).
    func replacingTitle(_ title: String) -> VorbisComments {
        replacing("TITLE", with: title)
    }

    /// With its entries named `name` replaced by one holding `value` (put first when there was none).
    func replacing(_ name: String, with value: String) -> VorbisComments {
        let titleEntry = Array("\(name)=\(value)".utf8)
        var result = self
        result.entries = []
        var placed = false
        for entry in entries {
            if Self.name(of: entry) == name {
                if !placed { result.entries.append(titleEntry) }
                placed = true
            } else {
                result.entries.append(entry)
            }
        }
        if !placed { result.entries.insert(titleEntry, at: 0) }
        return result
    }

    // MARK: Markers

    /// Whether `name` is a chapter entry's (`CHAPTER001`, `CHAPTER001NAME`, `CHAPTER001URL`).
    private static func isChapter(_ name: String) -> Bool {
        guard name.hasPrefix("CHAPTER") else { return false }
        let rest = name.dropFirst("CHAPTER".count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && ["", "NAME", "URL"].contains(String(rest.dropFirst(digits.count)))
    }

    /// With its chapter entries replaced by `markers` (times from frames at `sampleRate`),
    /// after the other entries.
    func replacingMarkers(_ markers: [FileMarker], sampleRate: Int) -> VorbisComments {
        var result = self
        result.entries = entries.filter { entry in Self.name(of: entry).map { !Self.isChapter($0) } ?? true }
        for (index, marker) in markers.enumerated() {
            let number = String(index + 1).leftPadded(to: 3)
            let seconds = Double(marker.frame) / Double(max(sampleRate, 1))
            result.entries.append(Array("CHAPTER\(number)=\(Self.timestamp(seconds))".utf8))
            if !marker.label.isEmpty { result.entries.append(Array("CHAPTER\(number)NAME=\(marker.label)".utf8)) }
        }
        return result
    }

    /// The chapters as markers (frames at `sampleRate`), earliest first; malformed ones are left out.
    func markers(sampleRate: Int) -> [FileMarker] {
        var times: [String: Double] = [:]
        var names: [String: String] = [:]
        for entry in entries {
            guard let name = Self.name(of: entry), Self.isChapter(name) else { continue }
            let rest = name.dropFirst("CHAPTER".count)
            let number = String(rest.prefix { $0.isASCII && $0.isNumber })
            switch rest.dropFirst(number.count) {
            case "": if let seconds = Self.seconds(Self.value(of: entry)) { times[number] = seconds }
            case "NAME": names[number] = Self.value(of: entry)
            default: break
            }
        }
        return times.map { number, seconds in
            FileMarker(frame: Int64((seconds * Double(sampleRate)).rounded()), label: names[number] ?? "")
        }.sorted { ($0.frame, $0.label) < ($1.frame, $1.label) }
    }

    /// `HH:MM:SS.mmm`.
    static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int64((max(seconds, 0) * 1000).rounded())
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let wholeSeconds = milliseconds / 1000 % 60
        return String(hours).leftPadded(to: 2) + ":" + String(minutes).leftPadded(to: 2) + ":"
            + String(wholeSeconds).leftPadded(to: 2) + "." + String(milliseconds % 1000).leftPadded(to: 3)
    }

    /// Seconds from `HH:MM:SS(.fraction)`; `nil` when it is not one.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        func digits(_ part: Substring) -> Bool { !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.count == 3, digits(parts[0]), digits(parts[1]), let hours = Int(parts[0]), let minutes = Int(parts[1]), let rest = Double(parts[2]),
            hours >= 0, (0..<60).contains(minutes), rest >= 0, rest < 60, parts[2].first?.isNumber == true
        else { return nil }
        return Double(hours * 3600 + minutes * 60) + rest
    }
}

extension String {
    /// Padded with zeros on the left to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
