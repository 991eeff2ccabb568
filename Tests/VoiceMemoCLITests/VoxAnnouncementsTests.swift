@testable import VoiceActivation
import Audio
import Testing

@testable import VoiceMemoCLI

/// What `record --vox` says on standard error as the detector's status changes. The runner
/// reads the status once more after the input ended, so a file read whole before the first
/// look still gets these lines from its last status (`VoxRoomTests` holds the first look back
/// with strace).
@Suite struct VoxAnnouncementsTests {
    static func status(
        _ phase: VoiceActivation.Phase = .armed, threshold: Double = -40, floor: Double? = nil
    ) -> VoiceActivationStatus {
        VoiceActivationStatus(
            phase: phase, levelDB: -60, startThresholdDB: threshold, stopThresholdDB: threshold - 6, silence: 0,
            hangTime: 3, noiseFloorDB: floor)
    }

    /// The only status read can be the last one (unpaced input ended before the first poll
    /// after it): a room already close to the threshold is said from it.
    @Test func aRoomCloseToTheThresholdIsSaidFromTheFirstStatusThatShowsIt() {
        var announcements = VoxAnnouncements(settings: VoiceActivationSettings())
        #expect(announcements.lines(after: Self.status(floor: nil)).isEmpty, "no floor yet, nothing to say")
        #expect(
            announcements.lines(after: Self.status(floor: -45.2))
                == ["warning: room noise -45 dB is close to the -40 dB threshold: takes may not end; raise --vox-threshold"])
        #expect(announcements.lines(after: Self.status(floor: -44)).isEmpty, "said once while it lasts")
        #expect(
            announcements.lines(after: Self.status(floor: -55))
                == ["room noise -55 dB is back under the -40 dB threshold by 10 dB or more"])
        #expect(announcements.lines(after: Self.status(floor: -60)).isEmpty)
    }

    @Test func aQuietRoomSaysNothing() {
        var announcements = VoxAnnouncements(settings: VoiceActivationSettings())
        for floor in [nil, -60.0, -50.5, -70] {
            #expect(announcements.lines(after: Self.status(floor: floor)).isEmpty, "\(String(describing: floor))")
        }
    }

    /// Calibration's threshold is said once, when the phase leaves `.calibrating`, in the
    /// same status as a room that is close to it when both happen between two polls.
    @Test func theCalibratedThresholdIsSaidOnceWithTheRoomInTheSameStatus() {
        var announcements = VoxAnnouncements(settings: VoiceActivationSettings(calibrationTime: 2, calibrationMargin: 12))
        #expect(announcements.lines(after: Self.status(.calibrating, floor: -55)).isEmpty, "a room is not judged while calibrating")
        #expect(
            announcements.lines(after: Self.status(.armed, threshold: -43, floor: -50))
                == [
                    "threshold -43.0 dB: the room's level + 12 dB",
                    "warning: room noise -50 dB is close to the -43 dB threshold: takes may not end; raise --vox-threshold",
                ])
        #expect(announcements.lines(after: Self.status(.recording, threshold: -43, floor: -50)).isEmpty)
    }

    @Test func withoutCalibrationNoThresholdLine() {
        var announcements = VoxAnnouncements(settings: VoiceActivationSettings())
        #expect(announcements.lines(after: Self.status(.recording, floor: -70)).isEmpty)
    }
}
