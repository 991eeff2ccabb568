import Foundation
import Metering
import SoundFiles

/// What an export will write, every check made before anything is written (`planExport`).
public struct ExportPlan: Sendable, Equatable {
    /// The sound file: `PATH` with a folder target or a missing extension resolved.
    public struct Audio: Sendable, Equatable {
        public let destination: OutputDestination
        public let format: FileFormat
    }

    /// The transcript as a document (`TranscriptDocument`) instead of audio.
    public struct TranscriptCopy: Sendable, Equatable {
        public let destination: OutputDestination
        public let format: TranscriptFormat
    }

    public let memo: Memo
    public let audio: Audio?
    public let labels: OutputDestination?
    public let replacing: Bool
    /// The transcript instead of audio: PATH's extension (`.txt`, `.srt`, `.vtt`, `.md`) or
    /// `--transcript` asked for it.
    public var transcript: TranscriptCopy?
    /// `--loudness`: the copy normalised to this target (`MemoLibrary+LoudnessExport`).
    public var loudness: LoudnessTarget?
    /// `--enhance`: the copy's noise suppressed on the way (`MemoLibrary+EnhancedExport`), before
    /// any loudness normalisation.
    public var enhance = false

    /// The paths written, as the user would name them: the copy's first, then the labels'.
    public var paths: [String] { [audio?.destination.path, transcript?.destination.path, labels?.path].compactMap { $0 } }
}

extension MemoLibrary {
    /// Writes a copy of `memo` to `path`: the file itself when the format stays the same, else
    /// converted through libsndfile (same rate and channels; the encoding kept where the new
    /// format has it, else its default). Works in a read-only library.
    ///
    /// The copy is written beside its target and renamed into place when complete
    /// (`AtomicReplacement`): a failed export leaves nothing behind, and with `replacing` the
    /// old file stays as it was until the new one is whole.
    ///
    /// - Parameters:
    ///   - path: a file, or a folder (one that exists, or any path ending in `/`) to write
    ///     `<title>.<ext>` in; a name without a sound format's extension gets the format's.
    ///   - format: `nil` means the format `path`'s extension names, else the memo's own.
    ///   - replacing: replace a file already at `path`; without it, an existing file is refused.
    /// The target follows `OutputDestination`'s rules: never inside the library folder, never
    /// over anything but a regular file, through a symbolic link the file it points to, in a
    /// folder that exists.
    ///
    /// - Returns: the path written (`path`, or the name chosen in it or for it).
    /// - Throws: `.notAllowed` for a memo with no readable file, `.sound` for a refused
    ///   conversion (e.g. Opus at 44.1 kHz), `.destinationExists` for an existing file (without
    ///   `replacing`), `.file` for a refused destination (see `OutputDestination`) or an
    ///   unwritable one.
    @discardableResult
    public func export(_ memo: Memo, to path: String, format: FileFormat? = nil, replacing: Bool = false)
        throws(MemoLibraryError) -> String
    {
        let plan = try planExport(memo, to: path, labels: nil, format: format, replacing: replacing)
        try perform(plan)
        return plan.audio?.destination.path ?? path
    }

    /// Checks everything `perform` will write, before anything is: the memo's state, the
    /// format, both destinations (`OutputDestination`), and that the label track is not the
    /// audio's own file (`export S same.flac --labels same.flac --force` wrote the audio,
    /// then the labels over it).
    ///
    /// - Throws: as `export` and `exportLabels` do; `.file` naming `labels` when it is the
    ///   copy's file.
    public func planExport(
        _ memo: Memo, to path: String?, labels: String?, format: FileFormat?, replacing: Bool, transcript: TranscriptFormat? = nil
    ) throws(MemoLibraryError) -> ExportPlan {
        let labelsDestination = try labels.map { (labels) throws(MemoLibraryError) in
            try OutputDestination.check(labels, libraryFolder: folder, replacing: replacing)
        }
        // A transcript's extension (or `--transcript`) asks for the words, not the audio.
        if let path, let kind = transcript ?? (format == nil ? TranscriptFormat.named(byExtensionOf: path) : nil) {
            let copy = try transcriptCopy(of: memo, to: path, format: kind, replacing: replacing)
            if let labelsDestination, copy.destination.isSameFile(as: labelsDestination) {
                throw .file(
                    path: labelsDestination.path,
                    reason: "that is the file the transcript goes to (\(copy.destination.path)); give the label track a name of its own")
            }
            var plan = ExportPlan(memo: memo, audio: nil, labels: labelsDestination, replacing: replacing)
            plan.transcript = copy
            return plan
        }
        let audio = try path.map { (path) throws(MemoLibraryError) in try audioCopy(of: memo, to: path, format: format, replacing: replacing) }
        if let audio, let labelsDestination, audio.destination.isSameFile(as: labelsDestination) {
            throw .file(
                path: labelsDestination.path,
                reason: "that is the file the audio copy goes to (\(audio.destination.path)); "
                    + "give the label track a name of its own, e.g. \(MemoFileName.stem(of: audio.destination.path)).txt")
        }
        return ExportPlan(memo: memo, audio: audio, labels: labelsDestination, replacing: replacing)
    }

    /// Writes what `plan` holds: the copy, then the label track. A normalised copy
    /// (`plan.loudness`) reports how far it is to `progress`.
    /// - Returns: what the normalisation did, for a normalised copy.
    @discardableResult
    public func perform(_ plan: ExportPlan, progress: (ExportProgress) -> Void = { _ in }) throws(MemoLibraryError)
        -> LoudnessExportResult?
    {
        var normalised: LoudnessExportResult?
        if let audio = plan.audio, let target = plan.loudness, plan.enhance {
            normalised = try writeEnhancedNormalisedCopy(
                of: plan.memo, audio, target: target, replacing: plan.replacing, progress: progress)
        } else if let audio = plan.audio, let target = plan.loudness {
            normalised = try writeNormalisedCopy(of: plan.memo, audio, target: target, replacing: plan.replacing, progress: progress)
        } else if let audio = plan.audio, plan.enhance {
            try writeEnhancedCopy(of: plan.memo, audio, replacing: plan.replacing)
        } else if let audio = plan.audio {
            try writeCopy(of: plan.memo, audio, replacing: plan.replacing)
        }
        if let transcript = plan.transcript {
            try writeTranscript(of: plan.memo, transcript, replacing: plan.replacing)
        }
        if let labels = plan.labels {
            try writeLabels(of: plan.memo, to: labels, replacing: plan.replacing)
        }
        return normalised
    }

    /// The checked destination of `memo`'s transcript as `format` at `path`: a folder gets
    /// `<title>.<ext>`, a name without the format's extension gets it.
    ///
    /// - Throws: `.notAllowed` for a memo with no transcript (naming `transcribe`) or one whose
    ///   transcription failed; as `OutputDestination.check` for the destination.
    private func transcriptCopy(of memo: Memo, to path: String, format: TranscriptFormat, replacing: Bool)
        throws(MemoLibraryError) -> ExportPlan.TranscriptCopy
    {
        _ = try exportableTranscript(of: memo)
        let file = try ExportName.resolveTranscript(path, title: memo.title, format: format)
        let destination = try OutputDestination.check(file, libraryFolder: folder, replacing: replacing)
        return ExportPlan.TranscriptCopy(destination: destination, format: format)
    }

    /// Memo `memo`'s transcript, for a document of it (a stale one too: its words are as heard).
    ///
    /// - Throws: `.notAllowed` for a memo with no transcript (naming `transcribe`) or one whose
    ///   transcription failed (with its reason).
    public func exportableTranscript(of memo: Memo) throws(MemoLibraryError) -> Transcript {
        let stored = try transcript(of: memo)
        switch stored?.state ?? .none {
        case .none:
            throw .notAllowed(memo: memo, reason: "it has no transcript yet; make one with: voicememo transcribe \(memo.id)")
        case .failed:
            throw .notAllowed(
                memo: memo,
                reason: "its transcription failed (\(stored?.problem ?? "no reason given")); try again with: voicememo transcribe \(memo.id)")
        case .complete, .stale:
            return stored?.transcript ?? Transcript(words: [], model: "", frames: 0)
        }
    }

    private func writeTranscript(of memo: Memo, _ copy: ExportPlan.TranscriptCopy, replacing: Bool) throws(MemoLibraryError) {
        let transcript = try exportableTranscript(of: memo)
        let text = TranscriptDocument.text(transcript, format: copy.format, title: memo.title, duration: memo.duration)
        try AtomicReplacement(path: copy.destination.target, purpose: "transcript").perform(replacing: replacing) {
            temporary throws(MemoLibraryError) in
            let code = FileSystem.write(Array(text.utf8), toNewFile: temporary)
            if code != 0 {
                throw .file(path: copy.destination.path, reason: "cannot write the transcript: " + FileSystem.describe(code), osError: code)
            }
        }
    }

    /// The checked destination and format of a copy of `memo` at `path`.
    private func audioCopy(of memo: Memo, to path: String, format: FileFormat?, replacing: Bool)
        throws(MemoLibraryError) -> ExportPlan.Audio
    {
        switch memo.state {
        case .missing: throw .notAllowed(memo: memo, reason: "its file is missing")
        case .damaged: throw .notAllowed(memo: memo, reason: Self.damagedReason(of: memo))
        case .recording: throw .notAllowed(memo: memo, reason: "it is still being recorded")
        case .complete, .recovered: break
        }
        let (file, target) = try ExportName.resolve(path, title: memo.title, asked: format, memoFormat: memo.format)
        if let named = RecordingSettings.inferred(fromPath: file), let format, named != format {
            throw .file(
                path: file,
                reason: "the name says \(named.displayName) but the format asked for is \(format.displayName); "
                    + "name it .\(ExportName.fileExtension(of: format)) or use --format \(named.rawValue)")
        }
        // Refused before anything is written, in export's words (it has no --rate or --channels).
        if target != memo.format, let limitation = conversionSettings(memo, format: target).limitation() {
            // A format that takes this memo's rate and channels, the memo's own first.
            let workable = ([memo.format] + FileFormat.allCases).first { conversionSettings(memo, format: $0).limitation() == nil }
            let remedy = workable.map { "choose another format, e.g. --format \($0.rawValue) (name it .\(ExportName.fileExtension(of: $0)))" }
                ?? "no format takes it: export it as it is (its own format, \(memo.format.displayName))"
            throw .file(
                path: file,
                reason: "this memo (\(memo.sampleRate) Hz, \(memo.channels) \(memo.channels == 1 ? "channel" : "channels")) "
                    + "cannot be exported as \(target.displayName): \(limitation); \(remedy)")
        }
        // Never into the library (another memo's file, the index), never over a device or a FIFO;
        // through a symbolic link, the file it points to; into a folder that exists.
        let destination = try OutputDestination.check(file, libraryFolder: folder, replacing: replacing)
        return ExportPlan.Audio(destination: destination, format: target)
    }

    private func writeCopy(of memo: Memo, _ audio: ExportPlan.Audio, replacing: Bool) throws(MemoLibraryError) {
        let path = audio.destination.path
        try AtomicReplacement(path: audio.destination.target, purpose: "export").perform(replacing: replacing) {
            temporary throws(MemoLibraryError) in
            if audio.format == memo.format {
                let code = FileSystem.copy(file: memo.path, toNewFile: temporary)
                if code != 0 {
                    throw .file(path: path, reason: "cannot copy the memo there: " + FileSystem.describe(code), osError: code)
                }
            } else {
                try convert(memo, to: temporary, format: audio.format)
                copyMarkers(of: memo, into: temporary, format: audio.format)
            }
        }
    }

    /// The settings a converted copy of `memo` gets: its rate and channels, its encoding where
    /// `format` has it, else `format`'s default.
    func conversionSettings(_ memo: Memo, format: FileFormat) -> RecordingSettings {
        let encoding = format.encodings.contains(memo.encoding) ? memo.encoding : format.defaultEncoding
        return RecordingSettings(format: format, encoding: encoding, sampleRate: memo.sampleRate, channels: memo.channels)
    }

    private func convert(_ memo: Memo, to path: String, format: FileFormat) throws(MemoLibraryError) {
        let settings = conversionSettings(memo, format: format)
        do {
            try Self.copyAudio(from: memo.path, to: path, settings: settings, title: memo.title)
        } catch {
            // A lossy format's writer keeps its W64 intermediate for a repair: not for a copy.
            Self.removeIntermediate(of: path)
            throw .sound(error)
        }
    }

    /// Decodes `source` and encodes it into a new file at `destination`; removes a partial file on failure.
    private static func copyAudio(from source: String, to destination: String, settings: RecordingSettings, title: String)
        throws(SoundFileError)
    {
        let reader = try SoundFileReader(path: source)
        defer { reader.close() }
        var metadata = reader.metadata
        metadata.title = title
        metadata.software = nil
        let writer = try SoundFileWriter(path: destination, settings: settings, metadata: metadata)
        let chunk = 8192
        var buffer = [Float](repeating: 0, count: chunk * max(1, settings.channels))
        do throws(SoundFileError) {
            while true {
                let count = try Self.read(reader, into: &buffer, frames: chunk)
                if count == 0 { break }
                try Self.write(buffer, frames: count, to: writer)
            }
            try writer.close()
        } catch {
            try? writer.close()
            _ = FileSystem.remove(destination)
            throw error
        }
    }

    static func read(_ reader: SoundFileReader, into buffer: inout [Float], frames: Int) throws(SoundFileError) -> Int {
        let result = buffer.withUnsafeMutableBytes { raw -> Result<Int, SoundFileError> in
            guard let base = raw.baseAddress else { return .success(0) }
            return Result { () throws(SoundFileError) in try reader.read(into: base, frames: frames, as: .float32) }
        }
        return try result.get()
    }

    static func write(_ buffer: [Float], frames: Int, to writer: SoundFileWriter) throws(SoundFileError) {
        let result = buffer.withUnsafeBytes { raw -> Result<Void, SoundFileError> in
            guard let base = raw.baseAddress else { return .success(()) }
            return Result { () throws(SoundFileError) in try writer.write(base, frames: frames, sampleFormat: .float32) }
        }
        try result.get()
    }
}
