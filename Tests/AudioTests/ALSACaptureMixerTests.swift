import Testing

@testable import Audio

@Suite struct ALSACaptureMixerTests {
    @Test(arguments: [
        ("hw:0,0", "hw:0"), ("plughw:1,0", "hw:1"), ("sysdefault:CARD=Generic", "hw:CARD=Generic"),
        ("hw:CARD=USB,DEV=0", "hw:CARD=USB"), ("pulse", "pulse"), ("pipewire", "pipewire"), ("default", "default"),
        ("vm_pulse", "vm_pulse"), ("hw:", "hw:"),
    ])
    func theMixerBehindAnInput(input: String, mixer: String) {
        #expect(ALSACaptureMixer.mixerDevice(forInput: input) == mixer)
    }

    @Test func aMissingMixerIsATypedError() {
        #expect {
            _ = try ALSACaptureMixer(input: "no_such_device_here")
        } throws: { error in
            guard case .noMixer(let alsa) = error as? CaptureGainError else { return false }
            return alsa == .noEntry && "\(error)".hasPrefix("cannot open the mixer: no such device")
        }
    }
}
