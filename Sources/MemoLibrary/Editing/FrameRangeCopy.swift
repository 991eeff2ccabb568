import Metering
import SoundFiles
import SpeechEnhancement

/// Copies chosen frame ranges of one sound file into a new one, in order, measuring what it
/// writes (the figures the new memo stores).
///
/// Samples are read at the file's own integer width where it has one (16-bit PCM and FLAC as
/// int16, 24- and 32-bit as int32, as `FileAnalysis` reads them) and written at that width into
/// the same format and encoding: for PCM, FLAC and ALAC every kept sample comes out exactly as it
/// was (libsndfile converts integers by shifting, never by rounding). Float files go through as
/// floats, also exactly. Lossy encodings (Vorbis, Opus, MP3, μ-law, A-law, IMA ADPCM) are decoded
/// and encoded again: `isExact` says which.
struct FrameRangeCopy {
    /// Half-open ranges of frames of the source, in order and not overlapping.
    let ranges: [Range<Int64>]
    /// Called after every chunk copied, and after every slice encoded, with how far the copy
    /// is; answering false stops it (it then throws `.interrupted`).
    var progress: (Progress) -> Bool = { _ in true }
    /// When set, the frames go through a `SpeechEnhancer` with these settings on their way
    /// (read as floats, enhanced, written): `enhance`. The copy then holds as many frames.
    var enhancement: EnhancementSettings?

    /// How far a copy is: the frames written, then, for a format written through a W64
    /// intermediate (MP3, Ogg Vorbis, ALAC, AAC), the frames encoded from it into the new
    /// file, the slow part. `encoded` is `nil` until that pass begins.
    struct Progress: Equatable {
        var written: Int64
        var encoded: Int64?
    }

    /// Frames per read.
    static let chunkFrames = 8_192

    /// Whether copying `encoding` keeps every sample as it was.
    static func isExact(_ encoding: Encoding) -> Bool {
        encoding.isLossless
    }

    /// The frames the copy holds.
    var totalFrames: Int64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    /// Writes the ranges of `source` into a new file at `destination` with `settings` and
    /// `metadata`, and returns what was written, measured, with its peak envelope.
    ///
    /// - Throws: `SoundFileError`: reading or seeking the source, writing (`.diskFull`,
    ///   `.fileTooLarge`), `.interrupted` when `progress` said stop. The caller removes the
    ///   destination on failure.
    func copy(from source: SoundFileReader, to destination: String, settings: RecordingSettings, metadata: SoundFileMetadata)
        throws(SoundFileError) -> (statistics: ProgrammeStatistics, envelope: PeakEnvelope)
    {
        let writer = try SoundFileWriter(path: destination, settings: settings, metadata: metadata)
        var meters = ProgrammeMeter(
            channels: min(max(settings.channels, 1), LevelMeter.maximumChannelCount), sampleRate: max(settings.sampleRate, 1))
        do throws(SoundFileError) {
            if let enhancement {
                try copyEnhanced(source, writer, settings: enhancement) { meters.consume($0) }
                try finish(writer)
                let statistics = meters.statistics
                return (statistics, statistics.envelope ?? meters.envelope.finished)
            }
            switch FileAnalysis.readFormat(for: source.info.encoding) {
            case .int16:
                try copy(source, writer, as: .int16, zero: Int16(0)) { meters.consume($0) }
            case .int32:
                try copy(source, writer, as: .int32, zero: Int32(0)) { meters.consume($0) }
            case .float32:
                try copy(source, writer, as: .float32, zero: Float(0)) { meters.consume($0) }
            }
            try finish(writer)
        } catch {
            try? writer.close(encodingIntermediate: false)
            throw error
        }
        let statistics = meters.statistics
        return (statistics, statistics.envelope ?? meters.envelope.finished)
    }

    /// Whether `settings` write through an intermediate that is encoded once the copy is
    /// written (so the copy's progress has a second pass).
    static func encodesAfterCopying(_ settings: RecordingSettings) -> Bool {
        settings.crashSafety == .intermediate
    }

    /// Closes the new file. A format written through an intermediate is encoded from it here,
    /// a slice at a time with its progress, instead of inside `close()` where nothing shows
    /// how far it is (an MP3 trim said 100 % for seconds while it was a third encoded).
    private func finish(_ writer: SoundFileWriter) throws(SoundFileError) {
        guard Self.encodesAfterCopying(writer.settings) else { return try writer.close() }
        try writer.close(encodingIntermediate: false)
        let written = writer.framesWritten
        let encoding = try IntermediateEncoding(
            intermediate: writer.recordingPath, into: writer.path, settings: writer.settings, metadata: writer.metadata)
        let encoded = try encoding.encodeAll { encoded, _ in progress(Progress(written: written, encoded: encoded)) }
        guard encoded != nil else {
            throw SoundFileError(kind: .interrupted, path: writer.path, detail: "stopped before the end")
        }
    }

    private func copy<Sample>(
        _ source: SoundFileReader, _ writer: SoundFileWriter, as format: SampleFormat, zero: Sample,
        measure: (UnsafeBufferPointer<Sample>) -> Void
    ) throws(SoundFileError) {
        let channels = max(1, source.info.channels)
        var buffer = [Sample](repeating: zero, count: Self.chunkFrames * channels)
        var written: Int64 = 0
        for range in ranges {
            try source.seek(toFrame: range.lowerBound)
            var position = range.lowerBound
            while position < range.upperBound {
                let wanted = Int(min(Int64(Self.chunkFrames), range.upperBound - position))
                let result = buffer.withUnsafeMutableBytes { bytes -> Result<Int, SoundFileError> in
                    guard let base = bytes.baseAddress else { return .success(0) }
                    return Result { () throws(SoundFileError) -> Int in try source.read(into: base, frames: wanted, as: format) }
                }
                let count = try result.get()
                guard count > 0 else {
                    throw SoundFileError(
                        kind: .read, path: source.path,
                        detail: "the file ended at frame \(position), before frame \(range.upperBound)")
                }
                let wrote = buffer.withUnsafeBytes { bytes -> Result<Void, SoundFileError> in
                    guard let base = bytes.baseAddress else { return .success(()) }
                    return Result { () throws(SoundFileError) in try writer.write(base, frames: count, sampleFormat: format) }
                }
                try wrote.get()
                buffer.withUnsafeBufferPointer { samples in
                    measure(UnsafeBufferPointer(rebasing: samples[0..<(count * channels)]))
                }
                position += Int64(count)
                written += Int64(count)
                if !progress(Progress(written: written)) {
                    throw SoundFileError(kind: .interrupted, path: writer.path, detail: "stopped before the end")
                }
            }
        }
    }

    /// Reads the ranges as floats, runs them through one `SpeechEnhancer` (a new one per
    /// copy) and writes what comes out, its tail too.
    ///
    /// - Throws: `.read`/`.write` and the writer's kinds; `.unsupported` naming why the enhancer
    ///   refused the audio (its rate, its channels) before anything was written.
    private func copyEnhanced(
        _ source: SoundFileReader, _ writer: SoundFileWriter, settings: EnhancementSettings,
        measure: (UnsafeBufferPointer<Float>) -> Void
    ) throws(SoundFileError) {
        let channels = max(1, source.info.channels)
        let enhancer: SpeechEnhancer
        do {
            enhancer = try SpeechEnhancer(sampleRate: source.info.sampleRate, channels: channels, settings: settings)
        } catch {
            throw SoundFileError(kind: .unsupported, path: source.path, detail: error.description)
        }
        var buffer = [Float](repeating: 0, count: Self.chunkFrames * channels)
        var enhanced: [Float] = []
        enhanced.reserveCapacity((Self.chunkFrames + enhancer.frameSize * 2) * channels)
        var written: Int64 = 0
        func write() throws(SoundFileError) {
            let frames = enhanced.count / channels
            guard frames > 0 else { return }
            let wrote = enhanced.withUnsafeBytes { bytes -> Result<Void, SoundFileError> in
                guard let base = bytes.baseAddress else { return .success(()) }
                return Result { () throws(SoundFileError) in try writer.write(base, frames: frames, sampleFormat: .float32) }
            }
            try wrote.get()
            enhanced.withUnsafeBufferPointer { measure($0) }
            enhanced.removeAll(keepingCapacity: true)
            written += Int64(frames)
            if !progress(Progress(written: written)) {
                throw SoundFileError(kind: .interrupted, path: writer.path, detail: "stopped before the end")
            }
        }
        for range in ranges {
            try source.seek(toFrame: range.lowerBound)
            var position = range.lowerBound
            while position < range.upperBound {
                let wanted = Int(min(Int64(Self.chunkFrames), range.upperBound - position))
                let result = buffer.withUnsafeMutableBytes { bytes -> Result<Int, SoundFileError> in
                    guard let base = bytes.baseAddress else { return .success(0) }
                    return Result { () throws(SoundFileError) -> Int in try source.read(into: base, frames: wanted, as: .float32) }
                }
                let count = try result.get()
                guard count > 0 else {
                    throw SoundFileError(
                        kind: .read, path: source.path,
                        detail: "the file ended at frame \(position), before frame \(range.upperBound)")
                }
                buffer.withUnsafeBufferPointer { samples in
                    enhancer.process(UnsafeBufferPointer(rebasing: samples[0..<(count * channels)]), into: &enhanced)
                }
                position += Int64(count)
                try write()
            }
        }
        enhancer.finish(into: &enhanced)
        try write()
    }
}
