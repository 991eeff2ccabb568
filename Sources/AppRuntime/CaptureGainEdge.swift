import Audio
import Interface

/// The capture keys (`<` `>` `M`) at the edge: `ALSACaptureMixer` calls (made on the effect
/// runner) and their answer as an action, in the Interface's own types.
enum CaptureGainEdge {
    /// Applies `change` (none: only reads) to the capture control behind ALSA input `device`.
    static func perform(_ change: CaptureGainChange?, device: String, source: InputSource) -> Action {
        do throws(CaptureGainError) {
            let mixer = try ALSACaptureMixer(input: device)
            switch change {
            case nil: break
            case .up?: try mixer.step(up: true)
            case .down?: try mixer.step(up: false)
            case .toggleSwitch?: try mixer.setSwitch(on: !(try mixer.read().isOn ?? true))
            }
            return .captureGainRead(reading(try mixer.read()), changed: change != nil)
        } catch {
            return .captureGainFailed(.captureGain(source.name, detail: "\(error)"), changed: change != nil)
        }
    }

    static func reading(_ gain: CaptureGain) -> CaptureGainReading {
        CaptureGainReading(control: gain.control, percent: gain.percent, decibels: gain.decibels, isOn: gain.isOn)
    }
}
