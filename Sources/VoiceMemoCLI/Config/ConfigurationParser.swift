import VoiceActivation
import ArgumentParsing
import Audio
import Foundation
import Interface
import AppRuntime
import SoundFiles

/// Reads the config file's text: `key = value` lines, `#` comments, blank lines. Pure.
///
/// Values are parsed by the same parsers as the matching flags, so a value the file
/// accepts is one the command line accepts, and the refusal reads the same.
enum ConfigurationParser {
    /// One known key: its name, what it accepts (for the unknown-key message), and how
    /// its value is stored.
    private struct Key {
        let name: String
        let apply: @Sendable (String, inout Configuration) throws(ValueRejection) -> Void
    }

    private static func key<Value>(
        _ name: String, _ parser: ValueParser<Value>, _ path: WritableKeyPath<Configuration, Value?> & Sendable
    ) -> Key {
        Key(name: name) { text, configuration throws(ValueRejection) in
            configuration[keyPath: path] = try parser.parse(text)
        }
    }

    private static func seconds(
        _ name: String, in range: ClosedRange<Double>, _ path: WritableKeyPath<Configuration, Double?> & Sendable
    ) -> Key {
        Key(name: name) { text, configuration throws(ValueRejection) in
            let seconds = try ValueParser<Duration>.duration.parse(text).seconds
            guard range.contains(seconds) else { throw .numberOutOfRange(allowed: range, unit: "s") }
            configuration[keyPath: path] = seconds
        }
    }

    /// `true`/`yes`/`on` or `false`/`no`/`off`.
    private static let onOff = ValueParser.oneOf(["true", "false", "yes", "no", "on", "off"]).map { ["true", "yes", "on"].contains($0) }

    /// Every key the file may set, in the order docs/USER-GUIDE.md's example lists them.
    private static let keys: [Key] = [
        key("format", RecordCommand.format.parser, \.format),
        key("encoding", RecordCommand.encodingParser, \.encoding),
        key("rate", RecordCommand.rate.parser, \.sampleRate),
        key("channels", RecordCommand.channels.parser, \.channels),
        key("quality", RecordCommand.quality.parser, \.quality),
        key("source", InputSource.parser, \.source),
        key("on_source_lost", sourceLoss, \.onSourceLost),
        key("echo_cancel", onOff, \.echoCancel),
        key("vox.threshold", .number(in: -160...0, unit: "dB"), \.voxThresholdDB),
        seconds("vox.silence", in: 0.01...3600, \.voxSilence),
        seconds("vox.min", in: 0...3600, \.voxMinimum),
        seconds("vox.preroll", in: 0...VoiceActivationSettings.longestPreRoll, \.voxPreRoll),
        key("vox.level_only", onOff, \.voxLevelOnly),
        key("vox.replay", onOff, \.voxReplay),
        key("vox.replay_pitch", RecordCommand.replayPitch.parser, \.voxReplayPitch),
        key("meter.min_db", .number(in: -160 ... -1, unit: "dB"), \.meterMinimumDB),
        seconds("meter.peak_hold", in: 0...60, \.meterPeakHold),
        key("meter.mode", .choice, \.meterMode),
        key("meter.loudness_target", .number(in: -60 ... -5, unit: "LUFS"), \.loudnessTarget),
        key("play_after_stop", onOff, \.playAfterStop),
        key("transcribe", .choice, \.transcribeMode),
        key("transcribe.model", .nonEmptyText, \.transcriptionModel),
        key("captions", onOff, \.captions),
        key("auto_title", onOff, \.autoTitle),
        key("notify", .choice, \.notify),
        key("alert", onOff, \.alertOn),
        key("alert.level", .number(in: -90...0, unit: "dB"), \.alertLevelDB),
        seconds("alert.hold", in: 0...60, \.alertHold),
        key("play.device", .nonEmptyText, \.playbackDevice),
        key("play.volume", .integer(in: 0...150), \.playbackVolume),
        key("play.enhance", onOff, \.playbackEnhances),
        key("sort", sortOrders, \.sortOrder),
    ]

    /// `on_source_lost`'s values: `stop` or `default`.
    private static let sourceLoss = ValueParser.oneOf(ServerSourceLoss.allCases.map(\.rawValue)).map {
        ServerSourceLoss(rawValue: $0) ?? .stop
    }

    /// `sort`'s values, as the memo table's orders (`a`).
    static let sortOrderNames: [(name: String, order: MemoSortOrder)] = [
        ("newest", .newestFirst), ("title", .byTitle), ("longest", .longestFirst),
    ]

    private static let sortOrders = ValueParser.oneOf(sortOrderNames.map(\.name)).map { name in
        sortOrderNames.first { $0.name == name }?.order ?? .newestFirst
    }

    /// The names of every key, for messages.
    static var keyNames: [String] { keys.map(\.name) }

    /// Parses the whole file; `path` only names it in errors. Lines end in LF or CR LF.
    ///
    /// A key is set once; the app's block (`AppSettingsBlock`, after its marker line) may set
    /// a key the lines above it set too, and its value wins.
    ///
    /// - Throws: `ConfigurationError` naming the file, the line and what is allowed.
    static func parse(_ text: String, path: String) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        var seen: Set<String> = []
        var isInAppBlock = false
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            func refuse(_ problem: String) -> ConfigurationError {
                ConfigurationError(path: path, line: number, problem: problem)
            }
            let line = String(rawLine).trimmingCharacters(in: .whitespaces)
            if !isInAppBlock, line == AppSettingsBlock.marker {
                isInAppBlock = true
                seen = []
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw refuse("\(quoted(line)) is not a setting; write key = value (or # for a comment)")
            }
            let name = String(line[..<equals]).trimmingCharacters(in: .whitespaces)
            let value: String
            switch Self.value(String(line[line.index(after: equals)...])) {
            case .success(let text): value = text
            case .failure(let problem): throw refuse(problem.message)
            }
            guard let key = keys.first(where: { $0.name == name }) else {
                let suggestion = Suggestion.nearest(to: name, among: keyNames).map { " (did you mean \($0)?)" } ?? ""
                throw refuse("unknown key \(quoted(name))\(suggestion); the keys are: \(keyNames.joined(separator: ", "))")
            }
            guard seen.insert(name).inserted else {
                throw refuse("\(name) is set twice; set it once")
            }
            do {
                try key.apply(value, &configuration)
            } catch {
                throw refuse(UsageError.invalidValue(argument: name, value: value, rejection: error).message)
            }
        }
        return configuration
    }

    /// Why a value's quoting is wrong.
    struct QuotingProblem: Error {
        let message: String
    }

    /// The value after `=`: without the spaces around it and a trailing comment (`#` after a
    /// space or a tab, to the end of the line). A value that holds such a `#` (or starts or
    /// ends with a space) is written in double quotes: `source = "file:/tmp/take #2.wav"`.
    /// A `#` inside a word (`file:/tmp/a#2.wav`) is part of the value.
    static func value(_ text: String) -> Result<String, QuotingProblem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("\"") {
            let body = trimmed.dropFirst()
            guard let close = body.firstIndex(of: "\"") else {
                return .failure(QuotingProblem(message: "the value \(quoted(trimmed)) has no closing \""))
            }
            let rest = body[body.index(after: close)...].trimmingCharacters(in: .whitespaces)
            guard rest.isEmpty || rest.hasPrefix("#") else {
                return .failure(QuotingProblem(
                    message: "\(quoted(rest)) follows the quoted value; only a # comment may follow it"))
            }
            return .success(String(body[..<close]))
        }
        var previous: Character = " "
        for index in trimmed.indices {
            let character = trimmed[index]
            if character == "#", previous == " " || previous == "\t" {
                return .success(String(trimmed[..<index]).trimmingCharacters(in: .whitespaces))
            }
            previous = character
        }
        return .success(trimmed)
    }

    /// The text in quotes, control characters shown as `?` so a message never carries them.
    private static func quoted(_ text: String) -> String {
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return "\"\(visible)\""
    }
}

/// A config file that cannot be used: where and why.
struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    let path: String
    /// 1-based; 0 when the file as a whole cannot be read.
    let line: Int
    /// What is wrong and what is allowed.
    let problem: String

    /// `/home/a/.config/voicememo/config, line 3: unknown key "fromat" …`.
    var description: String {
        line > 0 ? "\(path), line \(line): \(problem)" : "\(path): \(problem)"
    }
}
