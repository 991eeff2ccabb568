import Metering
import Vocabulary

/// The transcript view (`T`): the memo's words in lines, each line with its time; while the
/// memo plays, the word being heard is highlighted and kept in sight. The word cursor (`w` `b`)
/// is underlined and bold, the selected words (`v`) underlined in magenta. In a meeting memo's
/// transcript each speaker's stretch starts with the speaker's name in bold ("Me:", "Them:").
enum TranscriptView {
    static func render(_ state: AppState, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty, let view = state.transcriptView else { return }
        let theme = Theme(state)
        screen.fill(area)
        let words = view.words
        var heading = " Transcript of “\(view.title)”"
        if case .words = view.content { heading += " · \(words.count) word\(words.count == 1 ? "" : "s") · English" }
        screen.put(TextFitting.truncated(heading, toWidth: area.width), x: area.x, y: area.y, style: theme.columnHeader)
        guard area.height >= 2 else { return }
        let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
        guard !words.isEmpty else {
            for (offset, line) in TextFitting.wrapped(message(state, view), toWidth: max(body.width - 2, 1)).enumerated()
            where offset < body.height {
                screen.put(" " + line, x: body.x, y: body.y + offset, style: theme.dim, maxWidth: body.width)
            }
            return
        }
        let lines = TranscriptLayout.lines(words, width: area.width)
        let top = TranscriptLayout.top(state)
        let highlighted = TranscriptLayout.highlightedWord(state)
        let timeWidth = TranscriptLayout.timeWidth(forWidth: area.width)
        for (offset, line) in lines.dropFirst(top).prefix(body.height).enumerated() {
            let y = body.y + offset
            var x = body.x + 1
            let end = body.x + body.width
            if timeWidth > 0 {
                x += screen.put(TextFitting.padded(DisplayFormat.elapsedTime(seconds: line.start), toWidth: timeWidth), x: x, y: y, style: theme.dim)
            }
            if let speaker = line.speaker {
                x += screen.put(speaker.label + ": ", x: x, y: y, style: .bold, maxWidth: max(end - x, 0))
            }
            for index in line.words {
                if index > line.words.lowerBound { x += screen.put(" ", x: x, y: y, maxWidth: max(end - x, 0)) }
                guard x < end else { break }
                var style = index == highlighted ? theme.selection : Style.plain
                if view.selection?.contains(index) == true { style = theme.color(.magenta, style.attributes.union(.underline)) }
                if index == view.cursor { style.attributes.formUnion([.underline, .bold]) }
                x += screen.put(words[index].word, x: x, y: y, style: style, maxWidth: end - x)
            }
        }
    }

    /// What the view says when there are no words to show.
    static func message(_ state: AppState, _ view: TranscriptViewState) -> String {
        switch view.content {
        case nil:
            return "Reading the transcript…"
        case .words:
            return "No words were recognised in this memo (English speech only)."
        case .failed(let problem):
            return "This memo could not be transcribed: \(problem)"
        case .missing:
            if let current = state.transcription.current, current.memoID == view.memoID {
                let percent = Int((current.fraction * 100).rounded(.down))
                return state.pausesTranscription
                    ? "Transcribing… paused while recording (\(percent) %)." : "Transcribing… \(percent) %"
            }
            if state.transcription.isEnabled, state.transcription.unavailable == nil {
                return "Not transcribed yet: it is waiting its turn in the background."
            }
            return "Not transcribed. voicememo transcribe \(view.memoID) makes its transcript "
                + "(or transcribe = auto in the config, in the background)."
        }
    }
}
