import Foundation
import Testing

/// `voicememo gain` through ALSA's pulse control plugin on the suite's PulseAudio daemon: what
/// it sets is what the server's source then has (`pactl`).
@Suite struct GainCommandTests {
    @Test func setsAndReadsTheSourceVolumeAndSwitch() throws {
        let sandbox = try VoiceMemoSandbox()
        let sink = try sandbox.usePulse()
        let source = "alsa:" + VoiceMemoSandbox.pulseDevice

        let set = try sandbox.run("gain", "--source", source, "40%")
        #expect(set.status == 0, "\(set)")
        #expect(set.standardOutput == "\(source): Capture 40 %, on (mixer vm_pulse)\n", "\(set)")
        #expect(try sandbox.pulseSourceState(sink.monitor) == (40, false))

        let down = try sandbox.run("gain", "--source", source, "-15%")
        #expect(down.standardOutput.contains("Capture 25 %"), "\(down)")
        #expect(try sandbox.pulseSourceState(sink.monitor).0 == 25)

        let mute = try sandbox.run("gain", "--source", source, "mute", "--json")
        #expect(mute.status == 0, "\(mute)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(mute.standardOutput.utf8)) as? [String: Any])
        #expect(json["control"] as? String == "Capture")
        #expect(json["switch"] as? Bool == false)
        #expect(json["percent"] as? Double == 25)
        #expect(json["db"] is NSNull, "the pulse control has no dB scale")
        #expect(try sandbox.pulseSourceState(sink.monitor) == (25, true))

        let toggled = try sandbox.run("gain", "--source", source, "toggle")
        #expect(toggled.standardOutput.hasSuffix("on (mixer vm_pulse)\n"), "\(toggled)")
        #expect(try sandbox.pulseSourceState(sink.monitor) == (25, false))

        // No dB scale: a change in dB is refused and changes nothing.
        let decibels = try sandbox.run("gain", "--source", source, "+3dB")
        #expect(decibels.status == 1, "\(decibels)")
        #expect(decibels.standardError.contains("no dB scale: give a percentage"), "\(decibels)")
        #expect(try sandbox.pulseSourceState(sink.monitor) == (25, false))

        let read = try sandbox.run("gain", "--source", source)
        #expect(read.standardOutput == "\(source): Capture 25 %, on (mixer vm_pulse)\n", "\(read)")
    }

    @Test(arguments: ["3dB", "150%", "-5", "loud", "=abc", "=-5%", "+1e999dB"])
    func badChangesAreUsageErrors(change: String) throws {
        let sandbox = try VoiceMemoSandbox()
        let outcome = try sandbox.run("gain", "--source", "alsa:pulse", change)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.standardError.contains("CHANGE: \"\(change)\""), "the message names the value: \(outcome)")
    }

    @Test func inputsWithoutAMixerSaySo() throws {
        let sandbox = try VoiceMemoSandbox()
        let tone = try sandbox.run("gain", "--source", "tone:440@-12")
        #expect(tone.status == 2, "\(tone)")
        #expect(tone.standardError.contains("only ALSA inputs"), "\(tone)")
        let unknown = try sandbox.run("gain", "--source", "alsa:no_such_device")
        #expect(unknown.status == 1, "\(unknown)")
        #expect(unknown.standardError.contains("alsa:no_such_device: cannot open the mixer: no such device"), "\(unknown)")
        let card = try sandbox.run("gain", "--source", "alsa:hw:7,0")
        #expect(card.status == 1, "\(card)")
        #expect(card.standardError.contains("alsa:hw:7,0: cannot open the mixer"), "\(card)")
    }
}
