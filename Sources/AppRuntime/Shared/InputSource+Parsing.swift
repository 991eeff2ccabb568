import ArgumentParsing
import Audio
import Vocabulary
import Streaming

/// Parsing `--source`: `alsa:NAME`, `pulse:NAME`, `tone:FREQ@DBFS`, `file:PATH`, `url:URL`, two sound server
/// sources joined (`pulse:A+pulse:B`) or `meeting` into the engine's
/// `InputSource` (whose `description` writes it back as typed). The prefixes are
/// `InputName`'s (`InputName.parts(of:)`); what is wrong after one is worded here.
extension InputSource {

    /// The highest tone frequency accepted while parsing: half the highest sample rate.
    ///
    /// The real limit is half the sample rate of the recording, checked by
    /// ``rejection(atSampleRate:)`` once the rate is known.
    public static let maximumToneFrequency = 384_000.0

    /// Parses the text of `--source`.
    ///
    /// - Throws: ``ValueRejection/custom(problem:allowed:)`` saying what is wrong.
    public init(parsing text: String) throws(ValueRejection) {
        if text == InputName.meetingWord {
            try self.init(validating: .meeting)
            return
        }
        if let parts = InputName.joinedParts(of: text) {
            try self.init(validating: try Self.parseJoined(parts))
            return
        }
        guard let (kind, detail) = InputName.parts(of: text) else {
            throw .custom(
                problem: "is not a source",
                allowed: "use alsa:NAME (e.g. alsa:default), pulse:NAME (a sound server's source, e.g. pulse:default), tone:FREQ@DBFS (e.g. tone:1000@-12), file:PATH, url:URL (an http or https stream), pulse:A+pulse:B (two sound server sources in one memo) or meeting")
        }
        let name: InputName = switch kind {
        case .alsa: .alsa(device: detail)
        case .pulse: .pulse(source: detail)
        case .tone: try Self.parseTone(detail)
        case .file: .file(path: detail)
        case .url: .url(detail)
        }
        try self.init(validating: name)
    }

    /// The source named `name`, checked as `--source` checks it: an ALSA device, a sound server's
    /// source and a file need
    /// a name, a stream an http(s) URL, a tone a frequency and a peak `--source` would take.
    ///
    /// - Throws: ``ValueRejection/custom(problem:allowed:)`` saying what is wrong.
    public init(validating name: InputName) throws(ValueRejection) {
        switch name {
        case .alsa(let device):
            guard !device.isEmpty else {
                throw .custom(problem: "has no device name", allowed: "use alsa:NAME, e.g. alsa:default or alsa:hw:1,0")
            }
        case .pulse(let source):
            guard !source.isEmpty else {
                throw .custom(
                    problem: "has no source name",
                    allowed: "use pulse:NAME, e.g. pulse:default; `voicememo devices` lists the sound server's sources")
            }
        case .tone(let frequency, let peakDBFS):
            guard (1...Self.maximumToneFrequency).contains(frequency) else { throw Self.toneFrequencyOutOfRange }
            guard (-Double.greatestFiniteMagnitude...0).contains(peakDBFS) else { throw Self.tonePeakAboveFullScale }
        case .file(let path):
            guard !path.isEmpty else {
                throw .custom(problem: "has no path", allowed: "use file:PATH, e.g. file:speech.wav")
            }
        case .url(let url):
            guard StreamURL(url) != nil else {
                throw .custom(problem: "is not an http:// or https:// URL", allowed: "use url:http://HOST[:PORT]/PATH")
            }
        case .joined(let first, let second):
            for source in [first, second] where source.isEmpty || source.contains(InputName.joinSeparator) {
                throw Self.notJoinable(source.isEmpty ? "has a part with no source name" : "has a source name with \"+\" in it")
            }
        }
        self.init(name)
    }

    /// The parser for `--source` values.
    public static var parser: ValueParser<InputSource> {
        // Completion offers the kinds (a file after `file:`) and the usual ALSA devices.
        ValueParser(completion: .prefixes(["alsa:default", "alsa:pulse", "alsa:pipewire", "pulse:default", "meeting", "tone:1000@-12", "file:"])) {
            text throws(ValueRejection) in try InputSource(parsing: text)
        }
    }

    /// Why this source cannot be used at `sampleRate`, or `nil` if it can.
    ///
    /// A tone must stay below half the sample rate (the Nyquist frequency).
    public func rejection(atSampleRate sampleRate: Int) -> ValueRejection? {
        guard case .tone(let frequency, _) = self, frequency > Double(sampleRate) / 2 else { return nil }
        return .custom(
            problem: "is above half the sample rate",
            allowed: "use a frequency from 1 to \(sampleRate / 2) Hz at \(sampleRate) Hz")
    }

    /// What a joined source may be, after `problem`.
    private static func notJoinable(_ problem: String) -> ValueRejection {
        .custom(
            problem: problem,
            allowed: "join two sound server sources as pulse:A+pulse:B (e.g. pulse:default+pulse:@DEFAULT_MONITOR@), or use meeting for the default source and what the desktop plays; `voicememo devices` lists the sources")
    }

    /// The two sources `parts` (a `--source` split at its `+`) name; only sound server sources
    /// join, since only one server's clock keeps two inputs aligned.
    private static func parseJoined(_ parts: [String]) throws(ValueRejection) -> InputName {
        guard parts.count == 2 else { throw notJoinable("joins \(parts.count) inputs, not two") }
        var sources: [String] = []
        for part in parts {
            if part.isEmpty { throw notJoinable("has an empty part") }
            guard let (kind, source) = InputName.parts(of: part), kind == .pulse else {
                throw notJoinable("joins \"\(part)\", which is not a sound server source (only pulse:NAME joins)")
            }
            if source.isEmpty { throw notJoinable("has a part with no source name") }
            sources.append(source)
        }
        return .joined(first: sources[0], second: sources[1])
    }

    private static let toneFrequencyOutOfRange = ValueRejection.custom(
        problem: "has a frequency out of range",
        allowed: "use a frequency from 1 Hz to half the sample rate, e.g. tone:1000@-12")

    private static let tonePeakAboveFullScale = ValueRejection.custom(
        problem: "has a peak above 0 dBFS", allowed: "use a peak of 0 dBFS or less, e.g. tone:1000@-12")

    private static func parseTone(_ text: String) throws(ValueRejection) -> InputName {
        let notATone = ValueRejection.custom(
            problem: "is not a tone", allowed: "use tone:FREQ@DBFS, e.g. tone:1000@-12")
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw notATone }
        let frequencyParser = ValueParser<Double>.number(in: 1...maximumToneFrequency, unit: "Hz")
        let peakParser = ValueParser<Double>.number(in: -Double.greatestFiniteMagnitude...0, unit: "dB")
        let frequency: Double
        do throws(ValueRejection) {
            frequency = try frequencyParser.parse(String(parts[0]))
        } catch {
            if case .numberOutOfRange = error { throw toneFrequencyOutOfRange }
            throw notATone
        }
        let peakDBFS: Double
        do throws(ValueRejection) {
            peakDBFS = try peakParser.parse(String(parts[1]))
        } catch {
            if case .numberOutOfRange = error { throw tonePeakAboveFullScale }
            throw notATone
        }
        return .tone(frequency: frequency, peakDBFS: peakDBFS)
    }

}
