import Foundation
import Metering
import SoundFiles
import SpeechEnhancement

extension MemoLibrary {
    /// `export --enhance`: a copy of `memo` with its noise suppressed on the way
    /// (`SpeechEnhancer` with its standard settings), in `audio.format`, the memo untouched.
    /// Written beside its target and renamed into place when whole, as every export is.
    ///
    /// - Throws: `.notAllowed` naming why the enhancer refuses the memo (its rate, its
    ///   channels) before anything is written; `.sound` for a read or write that failed.
    func writeEnhancedCopy(of memo: Memo, _ audio: ExportPlan.Audio, replacing: Bool) throws(MemoLibraryError) {
        try checkEnhanceable(memo)
        let settings = conversionSettings(memo, format: audio.format)
        try AtomicReplacement(path: audio.destination.target, purpose: "export").perform(replacing: replacing) {
            temporary throws(MemoLibraryError) in
            do throws(SoundFileError) {
                try Self.writeEnhanced(from: memo.path, to: temporary, settings: settings, title: memo.title)
            } catch {
                Self.removeIntermediate(of: temporary)
                throw .sound(error)
            }
            copyMarkers(of: memo, into: temporary, format: audio.format)
        }
    }

    /// `export --enhance --loudness`: enhanced first, into a hidden 32-bit float CAF beside
    /// the target (removed afterwards, whatever happens), which the loudness passes then read
    /// as they would the memo.
    func writeEnhancedNormalisedCopy(
        of memo: Memo, _ audio: ExportPlan.Audio, target: LoudnessTarget, replacing: Bool, progress: (ExportProgress) -> Void
    ) throws(MemoLibraryError) -> LoudnessExportResult {
        try checkEnhanceable(memo)
        let destination = URL(fileURLWithPath: audio.destination.target)
        let intermediate = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).enhance-\(getpid()).caf").path
        defer { _ = FileSystem.remove(intermediate) }
        let settings = RecordingSettings(format: .caf, encoding: .float, sampleRate: memo.sampleRate, channels: memo.channels)
        do throws(SoundFileError) {
            try Self.writeEnhanced(from: memo.path, to: intermediate, settings: settings, title: memo.title)
        } catch {
            throw .sound(error)
        }
        var enhanced = memo
        enhanced.path = intermediate
        return try writeNormalisedCopy(of: enhanced, audio, target: target, replacing: replacing, progress: progress)
    }

    /// Refuses, naming why, a memo the enhancer does not take.
    private func checkEnhanceable(_ memo: Memo) throws(MemoLibraryError) {
        do {
            _ = try SpeechEnhancer(sampleRate: memo.sampleRate, channels: max(1, memo.channels))
        } catch {
            throw .notAllowed(memo: memo, reason: "it cannot be enhanced: " + error.description)
        }
    }

    /// Decodes `source`, enhances it and encodes it into a new file at `destination` with
    /// `settings`; removes a partial file on failure.
    static func writeEnhanced(from source: String, to destination: String, settings: RecordingSettings, title: String)
        throws(SoundFileError)
    {
        let reader = try SoundFileReader(path: source)
        defer { reader.close() }
        let channels = max(1, reader.info.channels)
        let enhancer: SpeechEnhancer
        do {
            enhancer = try SpeechEnhancer(sampleRate: reader.info.sampleRate, channels: channels)
        } catch {
            throw SoundFileError(kind: .unsupported, path: source, detail: error.description)
        }
        var metadata = reader.metadata
        metadata.title = title
        metadata.software = nil
        let writer = try SoundFileWriter(path: destination, settings: settings, metadata: metadata)
        let chunk = 8192
        var buffer = [Float](repeating: 0, count: chunk * channels)
        var output: [Float] = []
        do throws(SoundFileError) {
            while true {
                let count = try read(reader, into: &buffer, frames: chunk)
                if count == 0 { break }
                output.removeAll(keepingCapacity: true)
                buffer.withUnsafeBufferPointer { enhancer.process(UnsafeBufferPointer(rebasing: $0[0..<(count * channels)]), into: &output) }
                if !output.isEmpty { try write(output, frames: output.count / channels, to: writer) }
            }
            output.removeAll(keepingCapacity: true)
            enhancer.finish(into: &output)
            if !output.isEmpty { try write(output, frames: output.count / channels, to: writer) }
            try writer.close()
        } catch {
            try? writer.close()
            _ = FileSystem.remove(destination)
            throw error
        }
    }
}
