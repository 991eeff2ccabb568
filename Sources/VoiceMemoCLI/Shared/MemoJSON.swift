import MemoLibrary

extension Memo {
    /// The memo as `record --json` prints it: one object (the memo's fields and its `state`).
    var jsonText: String {
        var writer = JSONWriter(capacity: 512)
        writeJSON(into: &writer)
        return writer.text
    }

    /// Memos as `list --json` prints them: one array, built straight into one buffer.
    ///
    /// - Parameter original: for an edit's memos, the id of the memo they replace (`replaces`).
    static func jsonText(
        of memos: [Memo], transcripts: [Int64: TranscriptState] = [:], markers: [Int64: [Marker]] = [:],
        replacing original: Int64? = nil
    ) -> String {
        var writer = JSONWriter(capacity: 64 + memos.count * 400)
        writer.raw("[")
        for (index, memo) in memos.enumerated() {
            if index > 0 { writer.raw(", ") }
            memo.writeJSON(
                into: &writer, transcript: transcripts[memo.id] ?? TranscriptState.none, markers: markers[memo.id] ?? [],
                replaces: original)
        }
        writer.raw("]")
        return writer.text
    }

    /// Appends the memo's object: `id, title, created, duration, frames, sample_rate, channels,
    /// format, encoding, path, size, peak_db, deleted_at, deleted_reason, state, loudness_lufs, true_peak_dbtp,
    /// lra, clips, transcript, markers, tags, starred`, in that order; loudness_lufs to clips are `null` when
    /// unknown; `deleted_reason` is `null` outside Recently Deleted, else `DeletionReason`'s
    /// stored text (`deleted`, `trim`, `undone-trim`, `found-in-trash`, …); `markers` is `[{"time": s, "label": text}, …]`, earliest first.
    ///
    /// Written field by field rather than through a `JSONValue` tree: this is `list --json`'s
    /// inner loop (docs/PERFORMANCE.md, "Memo library").
    /// `transcript`: the transcript state, `none` (a new recording's), `complete`, `stale` or `failed`.
    /// `replaces`, last and only for an edit's memos: the id of the memo the edit replaced.
    func writeJSON(
        into writer: inout JSONWriter, transcript: TranscriptState = .none, markers: [Marker] = [], replaces: Int64? = nil
    ) {
        writer.raw("{\"id\": ")
        writer.int(id)
        writer.raw(", \"title\": ")
        writer.string(title)
        writer.raw(", \"created\": ")
        writer.date(created.timeIntervalSince1970)
        writer.raw(", \"duration\": ")
        writer.number(duration)
        writer.raw(", \"frames\": ")
        writer.int(frames)
        writer.raw(", \"sample_rate\": ")
        writer.int(Int64(sampleRate))
        writer.raw(", \"channels\": ")
        writer.int(Int64(channels))
        writer.raw(", \"format\": ")
        writer.string(format.rawValue)
        writer.raw(", \"encoding\": ")
        writer.string(encoding.rawValue)
        writer.raw(", \"path\": ")
        writer.string(path)
        writer.raw(", \"size\": ")
        writer.int(size)
        writer.raw(", \"peak_db\": ")
        writer.number(peakDB)
        writer.raw(", \"deleted_at\": ")
        if let deletedAt {
            writer.date(deletedAt.timeIntervalSince1970)
        } else {
            writer.null()
        }
        writer.raw(", \"deleted_reason\": ")
        if let deletionReason {
            writer.string(deletionReason.storedText)
        } else {
            writer.null()
        }
        writer.raw(", \"state\": ")
        writer.string(state.rawValue)
        writer.raw(", \"loudness_lufs\": ")
        writer.optionalNumber(loudnessLUFS)
        writer.raw(", \"true_peak_dbtp\": ")
        writer.optionalNumber(truePeakDBTP)
        writer.raw(", \"lra\": ")
        writer.optionalNumber(loudnessRange)
        writer.raw(", \"clips\": ")
        if let clipCount {
            writer.int(clipCount)
        } else {
            writer.null()
        }
        writer.raw(", \"transcript\": ")
        writer.string(transcript.rawValue)
        writer.raw(", \"markers\": [")
        for (index, marker) in markers.enumerated() {
            writer.raw(index == 0 ? "{\"time\": " : ", {\"time\": ")
            writer.number(marker.time)
            writer.raw(", \"label\": ")
            writer.string(marker.label)
            writer.raw("}")
        }
        writer.raw("], \"tags\": [")
        for (index, tag) in tags.enumerated() {
            if index > 0 { writer.raw(", ") }
            writer.string(tag)
        }
        writer.raw("], \"starred\": ")
        writer.bool(isStarred)
        if let replaces {
            writer.raw(", \"replaces\": ")
            writer.int(replaces)
        }
        writer.raw("}")
    }
}
