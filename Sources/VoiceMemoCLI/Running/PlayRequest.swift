import ArgumentParsing
import Foundation

/// Everything `voicememo play` needs once its arguments are parsed.
struct PlayRequest {
    /// The sound file to play.
    var file: String
    /// The ALSA playback device name (without `alsa:`).
    var device: String
    /// `--from`: seconds into the file to start at.
    var start: Double?
}

extension PlayRequest {
    /// Resolves MEMO to a file and fills in the default device.
    ///
    /// - Throws: `CommandFailure` (exit 1) when MEMO names nothing playable.
    init(_ options: PlayOptions, context: CommandContext) throws {
        let device = options.device ?? "default"
        self.init(
            file: try PlayTarget.file(for: options.memo, context: context),
            device: device.hasPrefix("alsa:") ? String(device.dropFirst("alsa:".count)) : device,
            start: options.start?.seconds)
    }
}

/// What MEMO names for `play`: the one place that turns it into a file.
///
/// Today MEMO is a path to a sound file, because the memo library is not merged yet.
/// When it is, look MEMO up here first (an id or a unique title prefix, PRODUCT.md §2)
/// and fall back to a path; nothing else in `play` changes.
enum PlayTarget {
    /// The file MEMO names.
    ///
    /// - Throws: `CommandFailure` saying that no memo or file has that name.
    static func file(for memo: String, context: CommandContext) throws -> String {
        if FileManager.default.fileExists(atPath: memo) { return memo }
        throw CommandFailure("no memo or file named \"\(printable(memo))\"")
    }

    /// MEMO as typed, with control characters shown as `\u{1B}` so they cannot drive the terminal.
    private static func printable(_ text: String) -> String {
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
