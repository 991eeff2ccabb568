@testable import VoiceActivation
import Audio
import Interface
import Testing

@testable import AppRuntime

/// The app's voice-activation parameters and the engine's settings have one set of defaults:
/// 3 s of silence ends a take (at 2 s, and at 2.5 s, a standup spoken with
/// pauses of about 2 s became four memos).
@Suite struct VoiceDefaultsTests {
    @Test func theAppsDefaultsAreTheEngines() {
        #expect(VoiceActivationSettings().hangTime == 3)
        #expect(VoiceParameters().silence == 3)
        #expect(AppVoiceActivation.settings(VoiceParameters()) == VoiceActivationSettings())
    }
}
