/// The whole screen: a pure function of the state and its size.
public enum AppView {
    /// Renders `state` into a Screen of `state.width` × `state.height` cells.
    public static func render(_ state: AppState) -> Screen {
        var screen = Screen(width: state.width, height: state.height)
        let layout = state.layout
        HeaderView.render(state, in: layout.header, on: &screen)
        MeterView.render(state, rows: layout.meterRows, on: &screen)
        if let scale = layout.scale { ScaleView.render(state, in: scale, on: &screen) }
        if let caption = layout.caption { CaptionLineView.render(state, in: caption, on: &screen) }
        if let band = layout.waveform { WaveformBandView.render(state, in: band, on: &screen) }
        VoiceActivationView.renderCountdown(state, scale: layout.scale, on: &screen)
        for separator in [layout.topSeparator, layout.bottomSeparator].compactMap({ $0 }) {
            screen.put(String(repeating: "─", count: separator.width), x: separator.x, y: separator.y, style: .dim)
        }
        switch state.mode {
        case .help:
            ListViews.renderHelp(state, in: HelpLayout(state).area, on: &screen)
        case .recentlyDeleted, .confirmingPurge:
            RecentlyDeletedView.render(state, in: layout.body, on: &screen)
        case .voiceSettings(let field):
            VoiceActivationView.renderSettings(state, selected: field, in: layout.body, on: &screen)
        case .transcript:
            TranscriptView.render(state, in: layout.body, on: &screen)
        case .details(let id):
            MemoDetailsView.render(state, memoID: id, in: layout.body, on: &screen)
        case .pickingInput(let choices):
            ListViews.renderPicker(
                state, rows: choices?.map { ($0.source.pickerName, $0.description) }, hidden: state.hiddenDevices,
                in: layout.body, on: &screen)
        case .pickingOutput(let choices):
            ListViews.renderPicker(
                state, rows: choices?.map { ($0.device, $0.description) }, title: "Choose where memos play", looking: "Looking for playback devices…",
                hidden: state.hiddenDevices, in: layout.body, on: &screen)
        default:
            MemoTableView.render(state, in: layout.body, on: &screen)
        }
        BottomLinesView.render(state, layout: layout, on: &screen)
        return screen
    }
}
