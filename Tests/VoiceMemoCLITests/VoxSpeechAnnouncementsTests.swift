@testable import VoiceActivation
import Audio
import Testing

@testable import VoiceMemoCLI

/// What `record --vox` says of a room close to the threshold while it listens for speech: takes
/// end after the last speech there, so what the room risks is voices farther off starting takes.
@Suite struct VoxSpeechAnnouncementsTests {
    @Test func aCloseRoomWithTheSpeechDetectorWarnsOfDistantVoices() {
        var announcements = VoxAnnouncements(settings: VoiceActivationSettings())
        let status = VoiceActivationStatus(
            phase: .armed, levelDB: -44, startThresholdDB: -40, stopThresholdDB: -46, silence: 0, hangTime: 3,
            noiseFloorDB: -43.6, hearsSpeech: false)
        #expect(
            announcements.lines(after: status)
                == ["warning: room noise -44 dB is close to the -40 dB threshold: distant voices may start takes; raise --vox-threshold"])
    }
}
