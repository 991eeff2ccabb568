import Foundation
import SoundFiles

extension MemoLibrary {
    /// Writes a copy of `memo` to `path`: the file itself when the format stays the same, else
    /// converted through libsndfile (same rate and channels; the encoding kept where the new
    /// format has it, else its default). Works in a read-only library.
    ///
    /// The copy is written beside `path` and renamed into place when complete
    /// (`AtomicReplacement`): a failed export leaves nothing behind, and with `replacing` the
    /// old file stays as it was until the new one is whole.
    ///
    /// - Parameters:
    ///   - format: `nil` means the format `path`'s extension names, else the memo's own.
    ///   - replacing: replace a file already at `path`; without it, an existing file is refused.
    /// `path` follows `OutputDestination`'s rules: never inside the library folder, never over
    /// anything but a regular file, through a symbolic link the file it points to.
    ///
    /// - Throws: `.notAllowed` for a memo with no readable file, `.sound` for a refused
    ///   conversion (e.g. Opus at 44.1 kHz), `.destinationExists` for an existing file (without
    ///   `replacing`), `.file` for a refused destination (see `OutputDestination`) or an
    ///   unwritable one.
    public func export(_ memo: Memo, to path: String, format: FileFormat? = nil, replacing: Bool = false)
        throws(MemoLibraryError)
    {
        switch memo.state {
        case .missing: throw .notAllowed(memo: memo, reason: "its file is missing")
        case .damaged: throw .notAllowed(memo: memo, reason: Self.damagedReason(of: memo))
        case .recording: throw .notAllowed(memo: memo, reason: "it is still being recorded")
        case .complete, .recovered: break
        }
        let target = format ?? RecordingSettings.inferred(fromPath: path) ?? memo.format
        if let named = RecordingSettings.inferred(fromPath: path), named != target {
            throw .file(
                path: path,
                reason: "the name says \(named.displayName) but the format asked for is \(target.displayName); "
                    + "name it .\(target.fileExtensions.first ?? target.rawValue) or use --format \(named.rawValue)")
        }
        // Refused before anything is written, in export's words (it has no --rate or --channels).
        if target != memo.format, let limitation = conversionSettings(memo, format: target).limitation() {
            throw .file(
                path: path,
                reason: "this memo (\(memo.sampleRate) Hz, \(memo.channels) channels) cannot be exported as "
                    + "\(target.displayName): \(limitation); choose another format, e.g. --format flac (name it .flac)")
        }
        // Never into the library (another memo's file, the index), never over a device or a FIFO;
        // through a symbolic link, the file it points to (see `OutputDestination`).
        let destination = try OutputDestination.check(path, libraryFolder: folder, replacing: replacing)
        try AtomicReplacement(path: destination.target, purpose: "export").perform(replacing: replacing) {
            temporary throws(MemoLibraryError) in
            if target == memo.format {
                do {
                    try FileManager.default.copyItem(atPath: memo.path, toPath: temporary)
                } catch {
                    throw .file(path: path, reason: "cannot copy the memo there: \(error.localizedDescription)")
                }
            } else {
                try convert(memo, to: temporary, format: target)
                copyMarkers(of: memo, into: temporary, format: target)
            }
        }
    }

    /// The settings a converted copy of `memo` gets: its rate and channels, its encoding where
    /// `format` has it, else `format`'s default.
    private func conversionSettings(_ memo: Memo, format: FileFormat) -> RecordingSettings {
        let encoding = format.encodings.contains(memo.encoding) ? memo.encoding : format.defaultEncoding
        return RecordingSettings(format: format, encoding: encoding, sampleRate: memo.sampleRate, channels: memo.channels)
    }

    private func convert(_ memo: Memo, to path: String, format: FileFormat) throws(MemoLibraryError) {
        let settings = conversionSettings(memo, format: format)
        do {
            try Self.copyAudio(from: memo.path, to: path, settings: settings, title: memo.title)
        } catch {
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

    private static func read(_ reader: SoundFileReader, into buffer: inout [Float], frames: Int) throws(SoundFileError) -> Int {
        let result = buffer.withUnsafeMutableBytes { raw -> Result<Int, SoundFileError> in
            guard let base = raw.baseAddress else { return .success(0) }
            return Result { () throws(SoundFileError) in try reader.read(into: base, frames: frames, as: .float32) }
        }
        return try result.get()
    }

    private static func write(_ buffer: [Float], frames: Int, to writer: SoundFileWriter) throws(SoundFileError) {
        let result = buffer.withUnsafeBytes { raw -> Result<Void, SoundFileError> in
            guard let base = raw.baseAddress else { return .success(()) }
            return Result { () throws(SoundFileError) in try writer.write(base, frames: frames, sampleFormat: .float32) }
        }
        try result.get()
    }
}
