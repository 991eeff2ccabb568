extension ValueParser where Value == [String] {
    /// A command as a list of words, split the way a shell splits them but with nothing
    /// expanded: white space separates words; `'…'` keeps everything literally; `"…"` keeps
    /// everything but `\"`, `\\` and `\$`, which stand for the character; `\` outside quotes
    /// keeps the next character. `$`, `*`, `;`, `|`, `` ` `` are ordinary characters: no variable,
    /// glob, command or redirection is ever interpreted (run `sh -c '…'` for that, on purpose).
    public static var words: ValueParser<[String]> {
        ValueParser { text throws(ValueRejection) in
            let allowed = "use words separated by spaces, quoted with '…' or \"…\", e.g. \"notify-send 'Too loud'\""
            var words: [String] = []
            var current = ""
            var inWord = false
            var iterator = text.makeIterator()
            while let character = iterator.next() {
                switch character {
                case "'":
                    inWord = true
                    var closed = false
                    while let next = iterator.next() {
                        if next == "'" { closed = true; break }
                        current.append(next)
                    }
                    guard closed else { throw .custom(problem: "has a ' without its closing '", allowed: allowed) }
                case "\"":
                    inWord = true
                    var closed = false
                    while let next = iterator.next() {
                        if next == "\"" { closed = true; break }
                        if next == "\\" {
                            guard let escaped = iterator.next() else { break }
                            if escaped != "\"" && escaped != "\\" && escaped != "$" { current.append("\\") }
                            current.append(escaped)
                        } else {
                            current.append(next)
                        }
                    }
                    guard closed else { throw .custom(problem: "has a \" without its closing \"", allowed: allowed) }
                case "\\":
                    guard let escaped = iterator.next() else {
                        throw .custom(problem: "ends with a \\ that escapes nothing", allowed: allowed)
                    }
                    inWord = true
                    current.append(escaped)
                case _ where character.isWhitespace:
                    if inWord { words.append(current) }
                    current = ""
                    inWord = false
                default:
                    inWord = true
                    current.append(character)
                }
            }
            if inWord { words.append(current) }
            guard let first = words.first, !first.isEmpty else { throw .custom(problem: "names no command", allowed: allowed) }
            return words
        }
    }
}
