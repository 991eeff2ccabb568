import Audio
import Interface

/// The capture keys (`<` `>` `M`) at the edge: `CaptureVolume` calls (made on the effect
/// runner: an ALSA mixer, or the sound server's volume of a `pulse:` source) and their answer
/// as an action, in the Interface's own types.
enum CaptureGainEdge {
    /// Applies `change` (none: only reads) to the capture volume behind `source`.
    static func perform(_ change: CaptureGainChange?, source: InputSource) -> Action {
        do throws(CaptureGainError) {
            let volume = try CaptureVolume(for: source)
            switch change {
            case nil: break
            case .up?: try volume.step(up: true)
            case .down?: try volume.step(up: false)
            case .toggleSwitch?: try volume.toggleSwitch()
            }
            return .captureGainRead(reading(try volume.read()), changed: change != nil)
        } catch {
            return .captureGainFailed(.captureGain(source.name, detail: "\(error)"), changed: change != nil)
        }
    }

    static func reading(_ gain: CaptureGain) -> CaptureGainReading {
        CaptureGainReading(control: gain.control, percent: gain.percent, decibels: gain.decibels, isOn: gain.isOn)
    }
}
