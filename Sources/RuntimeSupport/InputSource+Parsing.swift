import ArgumentParsing
import Audio
import Streaming

/// Parsing `--source`: `alsa:NAME`, `tone:FREQ@DBFS` or `file:PATH` into the engine's
/// `InputSource` (whose `description` writes it back as typed).
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
        if text.hasPrefix("alsa:") {
            let name = String(text.dropFirst("alsa:".count))
            guard !name.isEmpty else {
                throw .custom(problem: "has no device name", allowed: "use alsa:NAME, e.g. alsa:default or alsa:hw:1,0")
            }
            self = .alsa(device: name)
        } else if text.hasPrefix("tone:") {
            self = try Self.parseTone(String(text.dropFirst("tone:".count)))
        } else if text.hasPrefix("file:") {
            let path = String(text.dropFirst("file:".count))
            guard !path.isEmpty else {
                throw .custom(problem: "has no path", allowed: "use file:PATH, e.g. file:speech.wav")
            }
            self = .file(path: path)
        } else if text.hasPrefix("url:") {
            let url = String(text.dropFirst("url:".count))
            guard StreamURL(url) != nil else {
                throw .custom(problem: "is not an http:// or https:// URL", allowed: "use url:http://HOST[:PORT]/PATH")
            }
            self = .url(url)
        } else {
            throw .custom(
                problem: "is not a source",
                allowed: "use alsa:NAME (e.g. alsa:default), tone:FREQ@DBFS (e.g. tone:1000@-12), file:PATH or url:URL (an http or https stream)")
        }
    }

    /// The parser for `--source` values.
    public static var parser: ValueParser<InputSource> {
        // Completion offers the three kinds (a file after `file:`) and the usual ALSA devices.
        ValueParser(completion: .prefixes(["alsa:default", "alsa:pulse", "alsa:pipewire", "tone:1000@-12", "file:"])) {
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

    private static func parseTone(_ text: String) throws(ValueRejection) -> InputSource {
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
            if case .numberOutOfRange = error {
                throw .custom(
                    problem: "has a frequency out of range",
                    allowed: "use a frequency from 1 Hz to half the sample rate, e.g. tone:1000@-12")
            }
            throw notATone
        }
        let peakDBFS: Double
        do throws(ValueRejection) {
            peakDBFS = try peakParser.parse(String(parts[1]))
        } catch {
            if case .numberOutOfRange = error {
                throw .custom(
                    problem: "has a peak above 0 dBFS", allowed: "use a peak of 0 dBFS or less, e.g. tone:1000@-12")
            }
            throw notATone
        }
        return .tone(frequency: frequency, peakDBFS: peakDBFS)
    }

}
