import ArgumentParsing
import Audio
import Vocabulary
import Streaming

/// Parsing `--source`: `alsa:NAME`, `pulse:NAME`, `tone:FREQ@DBFS`, `file:PATH` or `url:URL` into the engine's
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
        guard let (kind, detail) = InputName.parts(of: text) else {
            throw .custom(
                problem: "is not a source",
                allowed: "use alsa:NAME (e.g. alsa:default), pulse:NAME (a sound server's source, e.g. pulse:default), tone:FREQ@DBFS (e.g. tone:1000@-12), file:PATH or url:URL (an http or https stream)")
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
        }
        self.init(name)
    }

    /// The parser for `--source` values.
    public static var parser: ValueParser<InputSource> {
        // Completion offers the kinds (a file after `file:`) and the usual ALSA devices.
        ValueParser(completion: .prefixes(["alsa:default", "alsa:pulse", "alsa:pipewire", "pulse:default", "tone:1000@-12", "file:"])) {
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
