import Audio
import Metering

/// `voicememo gain`: reads, and changes, the capture volume behind an input: the ALSA mixer
/// control of an `alsa:` input, the sound server's own volume of a `pulse:` source.
enum GainRunner {
    static func run(_ options: GainOptions, context: CommandContext) throws -> ExitCode {
        let source = try options.source ?? context.configuration().source ?? AutomaticDevices.input
        do throws(CaptureGainError) {
            let volume = try CaptureVolume(for: source)
            switch options.change {
            case nil: break
            case .byDecibels(let decibels): try volume.change(byDecibels: decibels)
            case .toDecibels(let decibels): try volume.setDecibels(decibels)
            case .byPercent(let percent): try volume.change(byPercent: percent)
            case .toPercent(let percent): try volume.setPercent(percent)
            case .mute: try volume.setSwitch(on: false)
            case .unmute: try volume.setSwitch(on: true)
            case .toggle: try volume.toggleSwitch()
            }
            let gain = try volume.read()
            if options.json {
                context.console.printJSON(json(gain, device: volume.device).serialized)
            } else {
                context.console.printLine("\(source): \(text(gain)) (\(volume.location))")
            }
            return .success
        } catch {
            // The error names the input itself when it has no volume at all.
            let message = if case .noCaptureVolume = error { "\(error)" } else { "\(source): \(error)" }
            throw CommandFailure(message, exitCode: exitCode(error))
        }
    }

    /// A name that names nothing (an input without a volume, a source the server does not
    /// have) is a usage error, as `record` takes it; anything else a runtime failure.
    static func exitCode(_ error: CaptureGainError) -> ExitCode {
        switch error {
        case .noCaptureVolume: .usageError
        case .soundServer(let cause) where cause.kind == .noSuchSource: .usageError
        default: .failure
        }
    }

    /// `Capture -6.0 dB (-12.0 to 30.0 dB, 82 %), on` or `Capture 50 %, switched off`.
    static func text(_ gain: CaptureGain) -> String {
        let percent = "\(Int(gain.percent.rounded())) %"
        var text = gain.control + " "
        if let decibels = gain.decibels, let range = gain.decibelRange {
            text += DisplayFormat.decibels(Float(decibels)) + " (\(DisplayFormat.decibels(Float(range.lowerBound), includingUnit: false))"
                + " to \(DisplayFormat.decibels(Float(range.upperBound))), \(percent))"
        } else {
            text += percent
        }
        if let isOn = gain.isOn { text += isOn ? ", on" : ", switched off" }
        return text
    }

    static func json(_ gain: CaptureGain, device: String) -> JSONValue {
        .object([
            ("device", .string(device)),
            ("control", .string(gain.control)),
            ("percent", .number((gain.percent * 10).rounded() / 10)),
            ("db", gain.decibels.map { .number(($0 * 100).rounded() / 100) } ?? .null),
            ("db_min", gain.decibelRange.map { .number($0.lowerBound) } ?? .null),
            ("db_max", gain.decibelRange.map { .number($0.upperBound) } ?? .null),
            ("switch", gain.isOn.map { .bool($0) } ?? .null),
        ])
    }
}
