import Vocabulary
import Metering

/// Everything the index knows about one memo (`I`), in the table's place: its title, file,
/// format and encoding, rate and channels, size, length to the millisecond (and in frames),
/// when it was recorded, its levels (peak, true peak, loudness, loudness range, clips), its
/// state, its star and tags (when it has any), and for a memo in the library its markers and its transcript's state (read when `I`
/// opens: "…" until then). Values too wide for the screen are cut at the end; where the lines
/// do not all fit, the least telling are left out (`fitting`).
enum MemoDetailsView {
    static func render(_ state: AppState, memoID: Int64, in area: Rect, on screen: inout Screen) {
        guard !area.isEmpty else { return }
        let theme = Theme(state)
        guard let memo = (state.memos + state.deletedMemos).first(where: { $0.id == memoID }) else {
            screen.put(" That memo is no longer in the library.", x: area.x, y: area.y, style: theme.dim, maxWidth: area.width)
            return
        }
        let rows = fitting(lines(memo, state: state), rows: area.height)
        let labelWidth = (rows.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2
        for (offset, row) in rows.enumerated() where offset < area.height {
            let label = TextFitting.padded(" " + row.label, toWidth: labelWidth + 1)
            screen.put(label, x: area.x, y: area.y + offset, style: theme.columnHeader, maxWidth: area.width)
            let valueWidth = area.width - DisplayWidth.of(label)
            guard valueWidth > 0 else { continue }
            screen.put(TextFitting.truncated(row.value, toWidth: valueWidth), x: area.x + DisplayWidth.of(label), y: area.y + offset, maxWidth: valueWidth)
        }
    }

    /// The label and value of each line, in order. Pure.
    static func lines(_ memo: MemoRow, state: AppState) -> [(label: String, value: String)] {
        let recorded = CivilTime(seconds: memo.created, utcOffset: state.utcOffset)
        let levels = [
            "peak " + DisplayFormat.decibels(Float(memo.peakDB)) + "FS",
            "true peak " + (memo.truePeakDBTP.map { DisplayFormat.decibels(Float($0)) + "TP" } ?? "—"),
        ].joined(separator: "   ")
        let loudness = [
            MemoTableView.loudnessText(memo.loudnessLUFS) + " LUFS",
            "range " + (memo.loudnessRange.map { DisplayFormat.decibels(Float($0), includingUnit: false) + " LU" } ?? "—"),
        ].joined(separator: "   ")
        var rows: [(String, String)] = [
            ("Title", memo.title),
            ("File", memo.fileShown),
            ("Format", "\(memo.format.uppercased()), \(memo.encoding), \(rate(memo.sampleRate)), \(memo.channels == 1 ? "mono" : "\(memo.channels) channels")"),
            ("Length", "\(lengthToTheMillisecond(memo.frames, sampleRate: memo.sampleRate)) (\(memo.frames) frames)"),
            ("Size", DisplayFormat.byteCount(memo.size)),
            ("Recorded", "\(recorded.dateText) \(recorded.timeWithSecondsText)"),
            ("Levels", levels),
            ("Loudness", loudness),
            ("Clips", memo.clipCount.map(String.init) ?? "—"),
            ("State", stateText(memo.state)),
        ]
        if memo.isStarred || !memo.tags.isEmpty {
            let tags = memo.tags.map { "#" + TerminalText.safe($0) }.joined(separator: " ")
            rows.insert(("Tags", [memo.isStarred ? "★ starred" : "", tags].filter { !$0.isEmpty }.joined(separator: "   ")), at: 1)
        }
        if memo.deletedAt == nil {
            let extras = state.memoExtras?.memoID == memo.id ? state.memoExtras : nil
            rows.append(("Markers", extras.map(markersText) ?? "…"))
            rows.append(("Transcript", transcriptText(memo.id, extras?.transcript, state: state)))
        }
        if let deleted = memo.deletedAt {
            let day = CivilTime(seconds: deleted, utcOffset: state.utcOffset)
            rows.append(("Deleted", "\(day.dateText) \(day.timeWithSecondsText) (in Recently Deleted)"))
            rows.append(("Why", (memo.deletionReason ?? .deleted).explanation))
        }
        return rows
    }

    /// The lines that fit in `rows`, in their order: where there is no room for all, the least
    /// telling go first (clips, size, levels, before the title, state, length, markers and
    /// transcript).
    static func fitting(_ lines: [(label: String, value: String)], rows: Int) -> [(label: String, value: String)] {
        guard lines.count > rows else { return lines }
        let telling = ["Title", "State", "Deleted", "Why", "Length", "Tags", "Markers", "Transcript", "File", "Format", "Recorded", "Levels", "Loudness", "Size", "Clips"]
        let rank = { (label: String) in telling.firstIndex(of: label) ?? telling.count }
        let kept = Set(lines.indices.sorted { (rank(lines[$0].label), $0) < (rank(lines[$1].label), $1) }.prefix(max(rows, 0)))
        return lines.indices.filter(kept.contains).map { lines[$0] }
    }

    /// "none (…)" or "2: 00:00:05 Intro · 00:01:10", earliest first.
    /// The markers, or why they could not be read.
    static func markersText(_ extras: MemoExtras) -> String {
        extras.markersProblem.map { "cannot be read: \($0)" } ?? markersText(extras.markers)
    }

    static func markersText(_ markers: [MemoExtras.MarkerRow]) -> String {
        guard !markers.isEmpty else { return "none (b marks the play head while it plays)" }
        let each = markers.map { marker in
            let time = DisplayFormat.elapsedTime(seconds: marker.time)
            return marker.label.isEmpty ? time : "\(time) \(marker.label)"
        }
        return "\(markers.count): " + each.joined(separator: " · ")
    }

    /// Where the memo's transcript stands: being made, its words, not yet, or why it failed.
    static func transcriptText(_ memoID: Int64, _ content: TranscriptContent?, state: AppState) -> String {
        if let current = state.transcription.current, current.memoID == memoID {
            return "being transcribed, \(Int((current.fraction * 100).rounded(.down))) %"
        }
        switch content {
        case nil:
            return "…"
        case .words(let words) where words.isEmpty:
            return "transcribed: no words were recognised"
        case .words(let words):
            return "\(words.count) \(words.count == 1 ? "word" : "words") (T shows them, / finds them)"
        case .missing:
            return state.transcription.isEnabled
                ? "not yet (the app transcribes new memos in the background)"
                : "none: voicememo transcribe makes one (or transcribe = auto)"
        case .failed(let reason):
            return "could not be transcribed: \(reason)"
        }
    }

    /// `00:01:23.456`: the length from its frames, to the millisecond.
    static func lengthToTheMillisecond(_ frames: Int64, sampleRate: Int) -> String {
        let rate = Int64(max(1, sampleRate))
        let milliseconds = (frames * 1000 + rate / 2) / rate
        let clock = DisplayFormat.elapsedTime(seconds: Double(milliseconds / 1000))
        let fraction = String(milliseconds % 1000)
        return clock + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    static func rate(_ hertz: Int) -> String {
        hertz % 1000 == 0 ? "\(hertz / 1000) kHz" : hertz % 100 == 0 ? "\(hertz / 1000).\(hertz % 1000 / 100) kHz" : "\(hertz) Hz"
    }

    static func stateText(_ state: MemoRow.State) -> String {
        switch state {
        case .complete: "complete"
        case .recovered: "recovered (after the recorder was stopped abruptly; the file was finished at the next start)"
        case .damaged: "damaged (the file cannot be read whole)"
        case .missing: "missing (its file is gone)"
        case .recording: "being recorded"
        }
    }
}
