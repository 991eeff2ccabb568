/// Makes text typed by someone else safe to print in a message.
///
/// A value on the command line may hold escape sequences or other control characters; printed
/// as is, they would drive the terminal. They are shown as `\u{1B}` instead.
enum TerminalSafeText {
    static func escaping(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
