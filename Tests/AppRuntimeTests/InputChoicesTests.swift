import Audio
import Vocabulary
import Interface
import Testing

@testable import AppRuntime

/// The input picker's list: the current input first ("now"), ALSA's helper plugins (rate
/// converters, mixers, `null`) named as not listed rather than offered, the tones last.
@Suite struct InputChoicesTests {
    /// What `arecord -L` lists on this machine (alsa-lib and libasound2-plugins), plus a card.
    static let devices: [ALSADeviceInfo] = [
        ("null", "Discard all samples (playback) or generate zero samples (capture)"),
        ("lavrate", "Rate Converter Plugin Using Libav/FFmpeg Library"),
        ("samplerate", "Rate Converter Plugin Using Samplerate Library"),
        ("speexrate", "Rate Converter Plugin Using Speex Resampler"),
        ("jack", "JACK Audio Connection Kit"),
        ("oss", "Open Sound System"),
        ("pulse", "PulseAudio Sound Server"),
        ("speex", "Plugin using Speex DSP (resample, agc, denoise, echo, dereverb)"),
        ("upmix", "Plugin for channel upmix (4,6,8)"),
        ("vdownmix", "Plugin for channel downmix (stereo) with a simple spacialization"),
        ("default", "Default ALSA Output (currently PulseAudio Sound Server)"),
        ("sysdefault:CARD=PCH", "HDA Intel PCH, ALC3246 Analog\nDefault Audio Device"),
        ("dsnoop:CARD=PCH,DEV=0", "HDA Intel PCH, ALC3246 Analog\nDirect sample snooping device"),
    ].map { ALSADeviceInfo(name: $0.0, description: $0.1, streams: [.capture, .playback]) }

    @Test func theCurrentInputComesFirstAndTheHelpersAreNamedNotOffered() {
        let list = InputChoices.list(devices: Self.devices, current: .alsa(device: "pulse"))
        #expect(list.choices.map(\.source.description) == [
            "alsa:pulse", "alsa:jack", "alsa:oss", "alsa:default", "alsa:sysdefault:CARD=PCH", "alsa:dsnoop:CARD=PCH,DEV=0",
            "tone:440@-12", "tone:1000@-3",
        ])
        #expect(list.choices.first?.description == "now — PulseAudio Sound Server")
        #expect(list.hidden == ["null", "lavrate", "samplerate", "speexrate", "speex", "upmix", "vdownmix"])
        #expect(list.choices[4].description == "HDA Intel PCH, ALC3246 Analog — Default Audio Device", "lines joined")
    }

    @Test func aHelperGivenWithSourceIsStillOfferedAsTheCurrentInput() {
        let list = InputChoices.list(devices: Self.devices, current: .alsa(device: "null"))
        #expect(list.choices.first?.source == .alsa(device: "null"))
        #expect(list.choices.first?.description.hasPrefix("now — Discard all samples") == true)
        #expect(!list.hidden.contains("null"))
        #expect(list.choices.filter { $0.source == .alsa(device: "null") }.count == 1)
    }

    @Test func anInputALSADoesNotListIsFirstAsGiven() {
        let tone = InputChoices.list(devices: Self.devices, current: .tone(frequency: 440, peakDBFS: -12))
        #expect(tone.choices.first == InputChoice(source: .tone(frequency: 440, peakDBFS: -12), description: "now — test tone, 440 Hz at −12 dBFS"))
        #expect(tone.choices.filter { $0.source == .tone(frequency: 440, peakDBFS: -12) }.count == 1)
        let device = InputChoices.list(devices: [], current: .alsa(device: "voicememo_capture"))
        #expect(device.choices.first == InputChoice(source: .alsa(device: "voicememo_capture"), description: "now — not among ALSA's devices (arecord -L)"))
        let file = InputChoices.list(devices: Self.devices, current: .file(path: "/tmp/talk.wav"))
        #expect(file.choices.first == InputChoice(source: .file(path: "/tmp/talk.wav"), description: "now"), "where it came from is not known here")
        #expect(device.hidden.isEmpty)
    }

    @Test func theHelperRuleReadsTheNameBeforeItsArguments() {
        #expect(ALSADeviceInfo(name: "dmix:CARD=PCH,DEV=0", description: "", streams: [.playback]).isHelperPlugin)
        #expect(!ALSADeviceInfo(name: "dsnoop:CARD=PCH,DEV=0", description: "", streams: [.capture]).isHelperPlugin)
        #expect(!ALSADeviceInfo(name: "pulse", description: "", streams: [.capture]).isHelperPlugin)
    }

    /// The output picker leaves the same helpers out: `null` plays nothing, and the
    /// converters and mixers wrap a device the list offers anyway.
    @Test func theOutputPickerNamesTheHelpersAsHiddenToo() {
        let list = InputChoices.outputs(devices: Self.devices, current: "pulse")
        #expect(list.choices.map(\.device) == ["pulse", "default", "jack", "oss", "sysdefault:CARD=PCH", "dsnoop:CARD=PCH,DEV=0"])
        #expect(list.choices.first?.description == "now")
        #expect(list.choices[1].description == "ALSA's default device")
        #expect(list.hidden == ["null", "lavrate", "samplerate", "speexrate", "speex", "upmix", "vdownmix"])
        let chosenHelper = InputChoices.outputs(devices: Self.devices, current: "null")
        #expect(chosenHelper.choices.first?.device == "null", "a helper chosen with --device is still offered as the current one")
        #expect(!chosenHelper.hidden.contains("null"))
    }
}
