import Audio
import Metering

/// `voicememo gain`: reads, and changes, the capture control behind an ALSA input.
enum GainRunner {
    static func run(_ options: GainOptions, context: CommandContext) throws -> ExitCode {
        let source = try options.source ?? context.configuration().source ?? .default
        guard case .alsa(let device, _) = source else {
            throw CommandFailure("\(source) has no capture volume: only ALSA inputs (alsa:NAME) have a mixer", exitCode: .usageError)
        }
        do {
            let mixer = try ALSACaptureMixer(input: device)
            switch options.change {
            case nil: break
            case .byDecibels(let decibels): try mixer.change(byDecibels: decibels)
            case .toDecibels(let decibels): try mixer.setDecibels(decibels)
            case .byPercent(let percent): try mixer.change(byPercent: percent)
            case .toPercent(let percent): try mixer.setPercent(percent)
            case .mute: try mixer.setSwitch(on: false)
            case .unmute: try mixer.setSwitch(on: true)
            case .toggle: try mixer.setSwitch(on: !(try mixer.read().isOn ?? true))
            }
            let gain = try mixer.read()
            if options.json {
                context.console.printJSON(json(gain, device: mixer.device).serialized)
            } else {
                context.console.printLine("\(source): \(text(gain)) (mixer \(mixer.device))")
            }
            return .success
        } catch {
            throw CommandFailure("\(source): \(error)")
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
