import Foundation
import Metering
import SoundFiles

/// How far a loudness-normalised export is: pass 1 measures the memo, each later pass writes
/// the copy (gain and true-peak limiter, then the format's encoder) and measures what it wrote.
public struct ExportProgress: Sendable, Equatable {
    public enum Stage: Sendable, Equatable {
        case measuring
        /// Writing pass `pass` (1 the first) in `format`.
        case writing(pass: Int, format: FileFormat)
        /// Measuring what pass `pass` wrote.
        case checking(pass: Int)
    }

    public var stage: Stage
    /// How much of this stage is done, 0…1; `nil` where it is not counted (checking).
    public var fraction: Double?

    /// "measuring the loudness", "normalising, encoding MP3", "checking the copy (pass 2)".
    public var description: String {
        switch stage {
        case .measuring: "measuring the loudness"
        case .writing(let pass, let format): "normalising, encoding \(format.displayName)" + (pass > 1 ? " (pass \(pass))" : "")
        case .checking(let pass): "checking the copy" + (pass > 1 ? " (pass \(pass))" : "")
        }
    }
}

/// What a loudness-normalised export wrote.
public struct LoudnessExportResult: Sendable, Equatable {
    public let target: LoudnessTarget
    /// The memo's integrated loudness, in LUFS.
    public let originalLoudness: Double
    /// The copy's, as measured in the file written (decoded, as `analyze` reads it).
    public let loudness: Double
    /// The copy's true peak, in dBTP.
    public let truePeak: Double
    /// The gain applied, in dB.
    public let gain: Double
    /// The largest reduction the limiter made, in dB (0: it never acted).
    public let limiting: Double
    /// Passes that wrote the copy.
    public let passes: Int
}

extension MemoLibrary {
    /// Writes the copy of `plan`, normalised to `target`: two passes or more (see
    /// `LoudnessNormalization`), the written file measured after each, so the copy kept is one
    /// the meters of `analyze` find on target and under the ceiling. The memo is measured
    /// before anything is written; a memo too short or too quiet to measure is refused then.
    ///
    /// - Throws: `.notAllowed` naming the reason (too short, below the gate, a rate the meter
    ///   does not measure, a target the ceiling cannot hold), `.sound` for a read or write that
    ///   failed (a full disk); nothing is left at the destination.
    func writeNormalisedCopy(
        of memo: Memo, _ audio: ExportPlan.Audio, target: LoudnessTarget, replacing: Bool, progress: (ExportProgress) -> Void
    ) throws(MemoLibraryError) -> LoudnessExportResult {
        guard LoudnessMeter.supportedSampleRates.contains(memo.sampleRate) else {
            throw .notAllowed(
                memo: memo, reason: "its loudness cannot be measured at \(memo.sampleRate) Hz "
                    + "(the meter needs \(LoudnessMeter.supportedSampleRates.lowerBound) Hz or more)")
        }
        let originalLoudness = try Self.measureLoudness(of: memo, progress: progress)
        var plan: LoudnessNormalization
        do {
            plan = try LoudnessNormalization(target: target, measuredLoudness: originalLoudness.loudness, seconds: originalLoudness.seconds)
        } catch {
            throw .notAllowed(memo: memo, reason: "cannot normalise it: " + error.description)
        }
        let settings = conversionSettings(memo, format: audio.format)
        var result: LoudnessExportResult?
        try AtomicReplacement(path: audio.destination.target, purpose: "export").perform(replacing: replacing) {
            temporary throws(MemoLibraryError) in
            var pass = 0
            while true {
                pass += 1
                _ = FileSystem.remove(temporary)
                let limiting: Float
                do throws(SoundFileError) {
                    limiting = try Self.writeNormalised(
                        memo, to: temporary, settings: settings, gain: plan.gainFactor, ceiling: plan.limiterCeilingFactor,
                        progress: { progress(ExportProgress(stage: .writing(pass: pass, format: audio.format), fraction: $0)) })
                } catch {
                    Self.removeIntermediate(of: temporary)
                    throw .sound(error)
                }
                progress(ExportProgress(stage: .checking(pass: pass), fraction: nil))
                let written: FileAnalysis
                do throws(SoundFileError) {
                    written = try FileAnalysis.measure(path: temporary)
                } catch {
                    throw .sound(error)
                }
                let measured = LoudnessNormalization.Measurement(
                    integratedLoudness: written.loudness?.integratedLoudness, truePeak: Double(written.truePeak.truePeakLevel))
                let gain = plan.gain
                switch plan.next(after: measured) {
                case .again:
                    continue
                case .done:
                    copyMarkers(of: memo, into: temporary, format: audio.format)
                    result = LoudnessExportResult(
                        target: target, originalLoudness: plan.measuredLoudness, loudness: measured.integratedLoudness ?? -.infinity,
                        truePeak: measured.truePeak, gain: gain, limiting: -Double(Decibels.fromAmplitude(Double(limiting))),
                        passes: pass)
                    return
                case .unreachable(let closest):
                    let loudness = closest.integratedLoudness.map { LoudnessTarget.figure($0) + " LUFS" } ?? "below the gate"
                    throw .notAllowed(
                        memo: memo,
                        reason: "cannot bring it to \(target.description): after \(pass) passes the copy measured "
                            + "\(loudness) at \(LoudnessTarget.figure(closest.truePeak)) dBTP (the ceiling holds the peaks "
                            + "down by more than the loudness allows); aim lower with --loudness or raise --true-peak")
                }
            }
        }
        guard let result else { throw .notAllowed(memo: memo, reason: "the normalised copy was not written") }
        return result
    }

    /// Pass 1: the memo's integrated loudness (LUFS, `nil` below the gate) and its length.
    private static func measureLoudness(of memo: Memo, progress: (ExportProgress) -> Void) throws(MemoLibraryError)
        -> (loudness: Double?, seconds: Double)
    {
        var meter = LoudnessMeter(channels: max(1, memo.channels), sampleRate: memo.sampleRate)
        do throws(SoundFileError) {
            let frames = try eachBuffer(of: memo, progress: { progress(ExportProgress(stage: .measuring, fraction: $0)) }) { samples in
                meter.consume(samples)
            }
            return (meter.integratedLoudness, Double(frames) / Double(memo.sampleRate))
        } catch {
            throw .sound(error)
        }
    }

    /// One writing pass: the memo through the gain and limiter into a new file at `path`.
    /// - Returns: the smallest gain factor the limiter applied (1: it never acted).
    private static func writeNormalised(
        _ memo: Memo, to path: String, settings: RecordingSettings, gain: Float, ceiling: Float, progress: (Double) -> Void
    ) throws(SoundFileError) -> Float {
        let source = try SoundFileReader(path: memo.path)
        var metadata = source.metadata
        source.close()
        metadata.title = memo.title
        metadata.software = nil
        let writer = try SoundFileWriter(path: path, settings: settings, metadata: metadata)
        let channels = max(1, memo.channels)
        var limiter = TruePeakLimiter(channels: channels, sampleRate: memo.sampleRate, gain: gain, ceiling: ceiling)
        var output: [Float] = []
        do throws(SoundFileError) {
            try eachBuffer(of: memo, progress: progress) { (samples) throws(SoundFileError) in
                output.removeAll(keepingCapacity: true)
                limiter.process(samples, into: &output)
                if !output.isEmpty { try write(output, frames: output.count / channels, to: writer) }
            }
            output.removeAll(keepingCapacity: true)
            limiter.finish(into: &output)
            if !output.isEmpty { try write(output, frames: output.count / channels, to: writer) }
            try writer.close()
        } catch {
            try? writer.close()
            _ = FileSystem.remove(path)
            throw error
        }
        return limiter.smallestGain
    }

    /// Reads the memo's file as Float, `body` getting each buffer; `progress` the fraction read.
    /// - Returns: the frames read.
    @discardableResult
    private static func eachBuffer(
        of memo: Memo, progress: (Double) -> Void, _ body: (UnsafeBufferPointer<Float>) throws(SoundFileError) -> Void
    ) throws(SoundFileError) -> Int {
        let reader = try SoundFileReader(path: memo.path)
        defer { reader.close() }
        let channels = max(1, reader.info.channels)
        let chunk = 8192
        var buffer = [Float](repeating: 0, count: chunk * channels)
        var frames = 0
        let total = max(Double(memo.frames), 1)
        progress(0)
        while true {
            let count = try read(reader, into: &buffer, frames: chunk)
            if count == 0 { break }
            frames += count
            let result = buffer.withUnsafeBufferPointer { all -> Result<Void, SoundFileError> in
                Result { () throws(SoundFileError) in try body(UnsafeBufferPointer(rebasing: all[0..<(count * channels)])) }
            }
            try result.get()
            progress(min(1, Double(frames) / total))
        }
        return frames
    }
}
