/// Which feature an effect belongs to: the runtime hands it to that feature's handler
/// (`AppRuntime/Effects/`, one file per case), so a new effect is its case in `Effect`,
/// its line here and its handler's case.
public enum EffectFeature: Sendable, Hashable, CaseIterable {
    case recording, playback, library, inputs, voice, streams, transcripts, editing
    /// The settings kept in the config file.
    case settings
    /// The app's own life: quitting.
    case app
}

extension Effect {
    public var feature: EffectFeature {
        switch self {
        case .startRecording, .pauseRecording, .resumeRecording, .stopRecording, .markRecording:
            .recording
        case .play, .pausePlayback, .resumePlayback, .seekPlayback, .jumpPlayback, .adjustPlayback, .stopPlayback,
            .listOutputs, .selectOutput:
            .playback
        case .openLibrary, .reloadLibrary, .renameMemo, .undoRename, .setMemoTags, .deleteMemo, .restoreMemo, .purgeMemo, .exportMemo, .completeExportPath,
            .addMarker, .labelMarker, .loadMemoDetails:
            .library
        case .listInputs, .selectInput, .changeCaptureGain, .readCaptureGain, .setNoiseAlert, .ringBell:
            .inputs
        case .armVoiceActivation, .setVoiceReplay, .disarmVoiceActivation:
            .voice
        case .playStream, .stopStream, .recordStream:
            .streams
        case .searchTranscripts, .loadTranscript, .transcribeNewMemos:
            .transcripts
        case .editMemo, .undoEdit:
            .editing
        case .saveSettings:
            .settings
        case .quit:
            .app
        }
    }
}
