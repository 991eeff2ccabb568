/// The live captions' line under the scale while recording (`Layout.caption`): the label
/// `draft`, then the newest words that fit (the settled ones and the guess at the utterance in
/// progress, dim: they are replaced by the whole-file transcript once the memo is saved), or
/// why captions stopped.
enum CaptionLineView {
    static let label = " draft "

    static func render(_ state: AppState, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        if let stopped = state.captions.stopped {
            screen.put(" captions stopped: " + stopped, x: area.x, y: area.y, style: theme.warning, maxWidth: area.width)
            return
        }
        screen.put(label, x: area.x, y: area.y, style: theme.columnHeader, maxWidth: area.width)
        let room = area.width - DisplayWidth.of(label) - 1
        guard room > 0 else { return }
        let draft = state.captions.draft
        let text: String
        if state.recording == .paused {
            text = draft.isEmpty ? "(paused)" : TextFitting.tail(draft, toWidth: max(room - 9, 0)) + " (paused)"
        } else {
            text = draft.isEmpty ? "listening…" : TextFitting.tail(draft, toWidth: room)
        }
        screen.put(text, x: area.x + DisplayWidth.of(label), y: area.y, style: theme.dim, maxWidth: room)
    }
}
