import ArgumentParsing
import Audio
import Vocabulary
import AppRuntime
import Testing

/// `InputName`: the one place an input's text form is written and split, and the checks a
/// typed name gets when the app selects it (the same as `--source`'s).
@Suite struct InputNameTests {
    static let names: [InputName] = [
        .alsa(device: "hw:1,0"), .pulse(source: "alsa_input.usb-headset.mono"), .tone(frequency: 440, peakDBFS: -12), .tone(frequency: 997.5, peakDBFS: -0.5),
        .file(path: "/tmp/take #2.wav"), .url("http://127.0.0.1:8000/live"),
    ]

    @Test func theTextFormIsWhatParsingReadsBack() throws {
        #expect(Self.names.map(\.description) == [
            "alsa:hw:1,0", "pulse:alsa_input.usb-headset.mono", "tone:440@-12", "tone:997.5@-0.5", "file:/tmp/take #2.wav", "url:http://127.0.0.1:8000/live",
        ])
        for name in Self.names {
            #expect(try InputSource(parsing: name.description).name == name)
        }
        #expect(InputName.parts(of: "alsa:hw:1,0")?.detail == "hw:1,0")
        #expect(InputName.parts(of: "hw:1,0") == nil)
    }

    @Test func theHeaderShowsAnALSADeviceByItsOwnName() {
        #expect(InputName.alsa(device: "default").shownName == "default")
        #expect(InputName.tone(frequency: 440, peakDBFS: -12).shownName == "tone:440@-12")
    }

    @Test func aPlaybackDeviceLosesOnlyTheALSAPrefix() {
        #expect(InputName.playbackDevice(named: "alsa:hw:0,0") == "hw:0,0")
        #expect(InputName.playbackDevice(named: "default") == "default")
        #expect(InputName.playbackDevice(named: "tone:440@-12") == "tone:440@-12")
    }

    @Test func aSelectedNameIsCheckedAsSourceChecksIt() {
        for text in ["alsa:", "pulse:", "file:", "url:ftp://example.com/", "tone:0@-12", "tone:440@3"] {
            guard let (kind, _) = InputName.parts(of: text) else {
                Issue.record("\(text) has no kind")
                continue
            }
            let name: InputName = switch kind {
            case .alsa: .alsa(device: "")
            case .pulse: .pulse(source: "")
            case .file: .file(path: "")
            case .url: .url("ftp://example.com/")
            case .tone: text == "tone:0@-12" ? .tone(frequency: 0, peakDBFS: -12) : .tone(frequency: 440, peakDBFS: 3)
            }
            var parsed: ValueRejection?
            var validated: ValueRejection?
            do throws(ValueRejection) { _ = try InputSource(parsing: text) } catch { parsed = error }
            do throws(ValueRejection) { _ = try InputSource(validating: name) } catch { validated = error }
            #expect(parsed != nil && parsed == validated, "\(text)")
        }
    }
}
