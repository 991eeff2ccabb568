import Metering
import Testing

/// The input advice fitted to what stands behind the input: a file or a
/// stream is not told about mixers or keys, a sound server's input gets the app's keys and the
/// desktop's settings, never alsamixer; every sentence fits an 80-column status line.
@Suite struct InputAdviceTests {
    static let findings: [InputDiagnosis] = [
        .noAudio, .silent, .channelSilent(channels: [1], channelCount: 2), .channelSilent(channels: [2, 3], channelCount: 4),
        .tooHot, .tooQuiet,
    ]
    static let kinds: [InputKind] = [.device, .soundServer, .serverSource, .serverSources, .file, .stream, .tone]

    @Test func everySentenceFitsAStatusLine() {
        for finding in Self.findings {
            for kind in Self.kinds {
                #expect(finding.message(for: kind).count <= 78, "\(finding) \(kind): \(finding.message(for: kind))")
            }
        }
    }

    @Test func aFileOrAStreamIsNotToldAboutMixersOrKeys() {
        for finding in Self.findings where finding != .noAudio {
            for kind in [InputKind.file, .stream] {
                let text = finding.message(for: kind)
                #expect(!text.contains("alsamixer") && !text.contains("press") && !text.contains("gain"), "\(finding) \(kind): \(text)")
            }
        }
        #expect(InputDiagnosis.silent.message(for: .file) == "Input is silent: this part of the file holds no sound")
    }

    @Test func aSoundServersInputIsToldTheAppsKeysNotAlsamixer() {
        for finding in Self.findings {
            #expect(!finding.message(for: .soundServer).contains("alsamixer"), "\(finding)")
        }
        #expect(InputDiagnosis.silent.message(for: .soundServer) == "Input is silent: press M if muted, > to raise; or the desktop's sound settings")
        #expect(InputDiagnosis.tooHot.message(for: .soundServer).hasSuffix("press < to lower the gain"))
        #expect(InputDiagnosis.tooHot.message(for: .device).hasSuffix("press < to lower the gain"))
        #expect(InputDiagnosis.silent.message(for: .device) == InputDiagnosis.silent.message, "a card keeps alsamixer")
    }

    /// A sound server's source by name is changed on the server by the app's keys: it is told
    /// what a server's ALSA device is told, the keys and the desktop's settings, never alsamixer.
    @Test func aServerSourceIsToldTheKeysAsAServersALSADeviceIs() {
        for finding in Self.findings where finding != .noAudio {
            let text = finding.message(for: .serverSource)
            #expect(!text.contains("alsamixer") && text == finding.message(for: .soundServer), "\(finding): \(text)")
        }
        #expect(InputDiagnosis.silent.message(for: .serverSource) == "Input is silent: press M if muted, > to raise; or the desktop's sound settings")
    }

    /// Two joined sources (a meeting) have two volumes and no one for the keys: they are told
    /// the desktop's settings, never a key or alsamixer.
    @Test func joinedSourcesAreToldTheDesktopsSettingsNotTheKeys() {
        for finding in Self.findings where finding != .noAudio {
            let text = finding.message(for: .serverSources)
            #expect(!text.contains("alsamixer") && !text.contains("press"), "\(finding): \(text)")
        }
        #expect(InputDiagnosis.silent.message(for: .serverSources) == "Input is silent: is a source muted? (the desktop's sound settings)")
    }
}
