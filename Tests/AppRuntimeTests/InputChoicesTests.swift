import Audio
import Vocabulary
import Interface
import TestSupport
import Testing

@testable import AppRuntime

/// The input picker's list: the current input first ("now"), the sound server's sources by
/// their descriptions when a server answered, ALSA's devices (its rate converters, mixers and
/// `null` named as not listed rather than offered), the tones last.
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

    /// What a desktop's PulseAudio lists: a headset (the default), a sink's monitor as the
    /// server describes it, and a monitor whose description does not say it is one.
    static let serverSources: [PulseDeviceInfo] = [
        PulseDeviceInfo(
            name: "alsa_output.pci.analog-stereo.monitor", description: "Monitor of Built-in Audio Analog Stereo", channels: 2,
            sampleRate: 48000, isMonitor: true, isDefault: false),
        PulseDeviceInfo(
            name: "alsa_input.usb-headset.mono", description: "USB Headset Mono", channels: 1, sampleRate: 48000, isMonitor: false,
            isDefault: true),
        PulseDeviceInfo(name: "loopback.monitor", description: "Loopback", channels: 2, sampleRate: 44100, isMonitor: true, isDefault: false),
    ]

    @Test func theSoundServersSourcesComeFirstByTheirDescriptionsThenALSAs() {
        let list = InputChoices.list(serverSources: Self.serverSources, devices: Self.devices, current: .alsa(device: "pulse"))
        #expect(list.choices.map(\.source.description) == [
            "alsa:pulse",
            "pulse:alsa_output.pci.analog-stereo.monitor", "pulse:alsa_input.usb-headset.mono", "pulse:loopback.monitor",
            "pulse:default+pulse:@DEFAULT_MONITOR@",
            "alsa:jack", "alsa:oss", "alsa:default", "alsa:sysdefault:CARD=PCH", "alsa:dsnoop:CARD=PCH,DEV=0",
            "tone:440@-12", "tone:1000@-3",
        ])
        #expect(list.choices[1...3].map(\.description) == [
            "Monitor of Built-in Audio Analog Stereo", "default — USB Headset Mono", "monitor — Loopback",
        ])
        #expect(list.hidden == ["null", "lavrate", "samplerate", "speexrate", "speex", "upmix", "vdownmix"], "the server hides nothing")
    }

    @Test func aServerSourceThatIsTheCurrentInputIsFirstMarkedNowAndDefault() {
        let headset = InputName.pulse(source: "alsa_input.usb-headset.mono")
        let list = InputChoices.list(serverSources: Self.serverSources, devices: Self.devices, current: headset)
        #expect(list.choices.first == InputChoice(source: headset, description: "now — default — USB Headset Mono"))
        #expect(list.choices.filter { $0.source == headset }.count == 1)
        #expect(list.choices[1].source == .pulse(source: "alsa_output.pci.analog-stereo.monitor"), "the others in the server's order")
    }

    /// A server that answers with sources offers a meeting after them: its default source and
    /// the default sink's monitor in one memo; chosen, it is the current input marked "now".
    @Test func aServerWithSourcesOffersAMeetingAfterThem() {
        let list = InputChoices.list(serverSources: Self.serverSources, devices: [], current: .alsa(device: "default"))
        let meeting = InputChoice(source: .meeting, description: "Meeting (mic + desktop)")
        #expect(list.choices.firstIndex(of: meeting) == 1 + Self.serverSources.count, "\(list.choices)")
        let current = InputChoices.list(serverSources: Self.serverSources, devices: [], current: .meeting)
        #expect(current.choices.first == InputChoice(source: .meeting, description: "now — Meeting (mic + desktop)"))
        #expect(current.choices.filter { $0.source == .meeting }.count == 1)
        let silent = InputChoices.list(serverSources: nil, devices: [], current: .meeting)
        #expect(silent.choices.first == InputChoice(source: .meeting, description: "now — mic + desktop"))
    }

    /// With no server answering (nil) the list is ALSA's alone, as it is without the server;
    /// a server with no source adds nothing either.
    @Test func withNoServerAnsweringTheListIsALSAsAlone() {
        let alone = InputChoices.list(devices: Self.devices, current: .alsa(device: "pulse"))
        #expect(InputChoices.list(serverSources: nil, devices: Self.devices, current: .alsa(device: "pulse")) == alone)
        #expect(InputChoices.list(serverSources: [], devices: Self.devices, current: .alsa(device: "pulse")) == alone)
        #expect(!alone.choices.contains { $0.source.description.hasPrefix("pulse:") })
    }

    /// A `pulse:` input given with --source but not listed says why it is not.
    @Test func aServerSourceNotListedSaysWhy() {
        let gone = InputName.pulse(source: "unplugged")
        let answered = InputChoices.list(serverSources: Self.serverSources, devices: [], current: gone)
        #expect(answered.choices.first == InputChoice(source: gone, description: "now — not among the sound server's sources"))
        let silent = InputChoices.list(serverSources: nil, devices: [], current: gone)
        #expect(silent.choices.first == InputChoice(source: gone, description: "now — no sound server answers"))
        let serversDefault = InputChoices.list(serverSources: Self.serverSources, devices: [], current: .pulse(source: "default"))
        #expect(serversDefault.choices.first?.description == "now — the sound server's default source")
    }

    /// The server's words are its own: empty, several lines, terminal controls. None crashes
    /// the list or the picker, and the screen shows them safely.
    @Test func aServersOddDescriptionsAreOfferedSafely() {
        let odd = [
            PulseDeviceInfo(name: "blank", description: "", channels: 1, sampleRate: 48000, isMonitor: false, isDefault: true),
            PulseDeviceInfo(name: "quiet", description: "", channels: 1, sampleRate: 48000, isMonitor: false, isDefault: false),
            PulseDeviceInfo(
                name: "\u{1B}[2Jx", description: "Two\nlines \u{1B}[31mred\u{7}", channels: 2, sampleRate: 48000, isMonitor: false,
                isDefault: false),
        ]
        let list = InputChoices.list(serverSources: odd, devices: [], current: .pulse(source: "quiet"))
        #expect(list.choices.map(\.description).prefix(3) == ["now", "default", "Two — lines \u{1B}[31mred\u{7}"])
        var state = Fixtures.state(width: 80, height: 24)
        _ = reduce(&state, .key(.character("i")))
        _ = reduce(&state, .inputsListed(list))
        let screen = AppView.render(state).lines().joined(separator: "\n")
        #expect(!screen.contains("\u{1B}") && !screen.contains("\u{7}"), "\(screen)")
        #expect(screen.contains("Two — lines "), "\(screen)")
        for (width, height) in [(1, 1), (20, 5), (40, 12), (0, 0)] {
            var small = Fixtures.state(width: width, height: height)
            _ = reduce(&small, .key(.character("i")))
            _ = reduce(&small, .inputsListed(list))
            #expect(AppView.render(small).lines().count == height, "\(width)×\(height)")
        }
    }

    /// Choosing a server's source selects it by its `pulse:` name, through the same effect as
    /// an ALSA device; the row shows the server's description beside the name.
    @Test func choosingAServerSourceSelectsItsPulseName() throws {
        let list = InputChoices.list(serverSources: Self.serverSources, devices: Self.devices, current: .alsa(device: "default"))
        var state = Fixtures.state(width: 80, height: 24)
        #expect(reduce(&state, .key(.character("i"))) == [.listInputs])
        _ = reduce(&state, .inputsListed(list))
        let rows = AppView.render(state).lines()
        let headset = try #require(rows.first { $0.contains("pulse:alsa_input.usb-headset.mono") }, "\(rows)")
        #expect(headset.contains("default — USB Headset Mono"), "\(rows)")
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.enter)) == [.selectInput(source: .pulse(source: "alsa_input.usb-headset.mono"))])
        #expect(state.status?.text == "Opening pulse:alsa_input.usb-headset.mono…")
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

    /// The output picker offers the sound server's sinks first, as `pulse:NAME` by the server's
    /// description with its default marked, then ALSA's devices; the sink in use heads it.
    @Test func theOutputPickerOffersTheServersSinksByName() {
        let sinks = [
            PulseDeviceInfo(name: "speakers", description: "Built-in Audio Analog Stereo", channels: 2, sampleRate: 48_000, isMonitor: false, isDefault: true),
            PulseDeviceInfo(name: "headset", description: "USB Headset", channels: 2, sampleRate: 48_000, isMonitor: false, isDefault: false),
        ]
        let list = InputChoices.outputs(serverSinks: sinks, devices: Self.devices, current: "default")
        #expect(Array(list.choices.map(\.device).prefix(4)) == ["default", "pulse:speakers", "pulse:headset", "jack"])
        #expect(list.choices[1].description == "default — Built-in Audio Analog Stereo")
        #expect(list.choices[2].description == "USB Headset")
        let chosen = InputChoices.outputs(serverSinks: sinks, devices: Self.devices, current: "pulse:headset")
        #expect(chosen.choices.map(\.device).prefix(3) == ["pulse:headset", "pulse:speakers", "default"])
        #expect(chosen.choices[0].description == "now — USB Headset")
        let none = InputChoices.outputs(serverSinks: nil, devices: Self.devices, current: "pulse")
        #expect(none.choices.map(\.device) == InputChoices.outputs(devices: Self.devices, current: "pulse").choices.map(\.device))
    }
}
