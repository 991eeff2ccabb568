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
        .file(path: "/tmp/take #2.wav"), .url("http://127.0.0.1:8000/live"), .joined(first: "mic", second: "desk.monitor"),
    ]

    @Test func theTextFormIsWhatParsingReadsBack() throws {
        #expect(Self.names.map(\.description) == [
            "alsa:hw:1,0", "pulse:alsa_input.usb-headset.mono", "tone:440@-12", "tone:997.5@-0.5", "file:/tmp/take #2.wav", "url:http://127.0.0.1:8000/live",
            "pulse:mic+pulse:desk.monitor",
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

    /// `meeting` is the sound server's default source and the default sink's monitor, and reads
    /// back as its joined text form; the header names it as a meeting, the picker as `meeting`.
    @Test func meetingIsTheDefaultSourceJoinedWithTheDefaultMonitor() throws {
        let meeting = try InputSource(parsing: "meeting")
        #expect(meeting == .joined(first: "default", second: "@DEFAULT_MONITOR@"))
        #expect(meeting.name == .meeting && meeting.description == "pulse:default+pulse:@DEFAULT_MONITOR@")
        #expect(try InputSource(parsing: meeting.description) == meeting)
        #expect(InputName.meeting.shownName == "meeting (mic + desktop)")
        #expect(InputName.joined(first: "a", second: "b").shownName == "pulse:a+pulse:b")
        // The input picker names it by the shorthand `--source` takes.
        #expect(InputName.meeting.pickerName == "meeting")
        #expect(InputName.joined(first: "a", second: "b").pickerName == "pulse:a+pulse:b")
        #expect(InputName.pulse(source: "mic").pickerName == "pulse:mic")
    }

    /// A file's path and a stream's URL may hold a `+` and stay one input.
    @Test func aPlusInAPathOrURLIsNoJoin() throws {
        #expect(try InputSource(parsing: "file:/tmp/a+b.wav") == .file(path: "/tmp/a+b.wav"))
        #expect(try InputSource(parsing: "url:http://127.0.0.1:8000/a+b") == .url("http://127.0.0.1:8000/a+b"))
        #expect(InputName.joinedParts(of: "pulse:a+pulse:b") == ["pulse:a", "pulse:b"])
        #expect(InputName.joinedParts(of: "pulse:a") == nil)
    }

    /// Each bad join says what is wrong and what joins: two sound server sources.
    @Test(arguments: [
        ("+", "has an empty part"),
        ("pulse:a+", "has an empty part"),
        ("+pulse:a", "has an empty part"),
        ("pulse:a+pulse:", "has a part with no source name"),
        ("pulse:a+pulse:b+pulse:c", "joins 3 inputs, not two"),
        ("pulse:a+tone:440@-12", "joins \"tone:440@-12\", which is not a sound server source (only pulse:NAME joins)"),
        ("alsa:default+pulse:b", "joins \"alsa:default\", which is not a sound server source (only pulse:NAME joins)"),
        ("pulse:a+b", "joins \"b\", which is not a sound server source (only pulse:NAME joins)"),
    ])
    func aBadJoinIsRefusedSayingWhy(text: String, problem: String) {
        var rejection: ValueRejection?
        do throws(ValueRejection) { _ = try InputSource(parsing: text) } catch { rejection = error }
        guard case .custom(let said, let allowed) = rejection else {
            Issue.record("\(text) was taken: \(String(describing: rejection))")
            return
        }
        #expect(said == problem, "\(text)")
        #expect(allowed.contains("pulse:A+pulse:B") && allowed.contains("meeting"), "\(allowed)")
    }

    /// A joined name handed over by the app is checked as `--source` checks it.
    @Test func aSelectedJoinIsCheckedAsSourceChecksIt() {
        for name in [InputName.joined(first: "", second: "b"), .joined(first: "a+b", second: "c")] {
            var rejection: ValueRejection?
            do throws(ValueRejection) { _ = try InputSource(validating: name) } catch { rejection = error }
            #expect(rejection != nil, "\(name)")
        }
    }
}
