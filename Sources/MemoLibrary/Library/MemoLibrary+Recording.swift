import Foundation
import Vocabulary
import Metering
import SoundFiles

/// A memo being recorded: its row (state `recording`) and the lock that tells other processes
/// its recorder is alive.
///
/// Record into `memo.path` with `metadata` as the file's tags, then call
/// `MemoLibrary.finishRecording(_:statistics:)` with what the recorder measured (or
/// `abandonRecording(_:)` if nothing was kept).
public final class MemoRecording: Sendable {
    /// The memo as inserted: state `recording`, no audio yet.
    public let memo: Memo
    /// The tags to write into the file (title, creation date, and a comment naming the memo's id).
    public let metadata: SoundFileMetadata
    let lockPath: String
    let lockDescriptor: Int32

    init(memo: Memo, metadata: SoundFileMetadata, lockPath: String, lockDescriptor: Int32) {
        self.memo = memo
        self.metadata = metadata
        self.lockPath = lockPath
        self.lockDescriptor = lockDescriptor
    }

    /// Removes the lock file and releases the lock.
    func releaseLock() {
        _ = FileSystem.remove(lockPath)
        FileSystem.unlock(lockDescriptor)
    }
}

extension MemoLibrary {
    /// Adds a memo in state `recording`, before any audio exists, and locks it as alive.
    ///
    /// - Parameters:
    ///   - title: `nil` for the default, `Memo 2026-11-29 14:03`.
    ///   - settings: the recording's format (names the file's extension), rate and channels.
    ///   - date: the creation time.
    ///   - channelRoles: a meeting's (`InputName.channelRoles(channels:)`), kept in the row and
    ///     in the file's comment (not an MP3's: its ID3v1 comment holds 28 bytes).
    /// - Throws: `.invalidTitle`, `.readOnly`, `.busy`, `.file`.
    public func beginRecording(
        title: String?, settings: RecordingSettings, at date: Date, channelRoles: ChannelRoles? = nil
    ) throws(MemoLibraryError) -> MemoRecording {
        guard !isReadOnly else { throw readOnlyRefusal }
        let title = try title.map { (title) throws(MemoLibraryError) in try MemoTitle.acceptedInLibrary(title) }
            ?? MemoTitle.defaultTitle(for: date, timeZone: timeZone)
        _ = FileSystem.createDirectory(lockFolder)
        let fileExtension = settings.format.fileExtensions.first ?? settings.format.rawValue
        for _ in 0..<16 {
            let name = MemoFileName.make(for: date, fileExtension: fileExtension, timeZone: timeZone)
            if FileSystem.exists(absolute(name)) { continue }
            let lockPath = lockPath(forRelativePath: name)
            let descriptor: Int32
            switch FileSystem.lockFile(lockPath, wait: false) {
            case .success(let held): descriptor = held
            case .failure(let error) where error.wouldBlock: continue
            case .failure(let error): throw .file(path: lockPath, reason: FileSystem.describe(error.code), osError: error.code)
            }
            FileSystem.overwrite(descriptor, with: "\(FileSystem.processID)\n")
            var memo = Memo(
                id: 0, title: title, created: date, duration: 0, frames: 0, sampleRate: settings.sampleRate,
                channels: settings.channels, format: settings.format, encoding: settings.encoding,
                path: absolute(name), size: 0, peakDB: -160, state: .recording)
            memo.channelRoles = channelRoles.flatMap { $0.channelCount <= settings.channels ? $0 : nil }
            do {
                let id = try write { () throws(MemoLibraryError) -> Int64 in
                    try indexCall { () throws(SQLiteError) in try index.insert(memo, relativePath: name) }
                }
                var inserted = memo
                inserted.id = id
                let roles = settings.format == .mp3 ? nil : memo.channelRoles
                let metadata = SoundFileMetadata(
                    title: title, comment: MemoComment(memoID: id, channelRoles: roles).text,
                    date: SoundFileMetadata.dateText(secondsSince1970: date.timeIntervalSince1970))
                return MemoRecording(memo: inserted, metadata: metadata, lockPath: lockPath, lockDescriptor: descriptor)
            } catch {
                _ = FileSystem.remove(lockPath)
                FileSystem.unlock(descriptor)
                if case .index(let sqlite) = error, sqlite == .constraint { continue }
                throw error
            }
        }
        throw .file(path: folder, reason: "could not find a free file name for a new memo")
    }

    /// Stores what was recorded, with the figures its recorder measured on the frames it wrote
    /// (`Recorder.measuredStatistics`): peak, true peak, loudness, loudness range, clips. Marks
    /// the memo complete (or damaged when its file cannot be opened) and releases its lock.
    ///
    /// Only the file's header is read (length, rate, size): the audio is not decoded, so
    /// finishing an hour-long memo takes no longer than a second-long one. For lossy formats
    /// (Opus, Ogg Vorbis, MP3) the figures are those of the PCM captured, not of the encoding.
    ///
    /// - Parameter statistics: `nil` when the recorder did not measure: the file is then
    ///   decoded for every figure, its peak included (as `finishRecording(_:peakDB:)` does).
    ///
    /// A memo renamed while it was being recorded gets its new title written into its file now.
    @discardableResult
    public func finishRecording(_ recording: MemoRecording, statistics: ProgrammeStatistics?) throws(MemoLibraryError)
        -> Memo
    {
        try finish(recording, peakDB: statistics.map { max($0.samplePeakDB, Double(Decibels.floor)) }, measured: statistics)
    }

    /// Stores what was recorded (length, size, rate, `peakDB`) and marks the memo complete (or
    /// damaged when its file cannot be read); releases its lock.
    ///
    /// For a recorder that did not measure what it wrote: the finished file is decoded once
    /// (`AudioScan`) for the memo's true peak, loudness, loudness range and clip count, which
    /// costs time in proportion to the audio (about 8 s per hour). Prefer
    /// `finishRecording(_:statistics:)`.
    ///
    /// A memo renamed while it was being recorded gets its new title written into its file now.
    @discardableResult
    public func finishRecording(_ recording: MemoRecording, peakDB: Double?) throws(MemoLibraryError) -> Memo {
        try finish(recording, peakDB: peakDB, measured: nil)
    }

    /// Finishes the memo with `measured` statistics, or with the file's when `nil` (and its
    /// peak too when `peakDB` is `nil`).
    private func finish(_ recording: MemoRecording, peakDB: Double?, measured: ProgrammeStatistics?)
        throws(MemoLibraryError) -> Memo
    {
        defer { recording.releaseLock() }
        if SoundFileRecovery.needsEncoding(path: recording.memo.path) {
            // The encode into the final file did not finish (the disk filled behind the
            // encoder): the whole recording is in its intermediate. The row stays `recording`
            // and, its lock released, is recovered like a killed recording once there is room
            // (the next opening that finishes recoveries: `list`, the app, `recover`).
            return try existing(recording.memo.id)
        }
        let probe = FileProbe(path: recording.memo.path, timeZone: timeZone)
        let state: Memo.State = probe.info != nil ? .complete : (FileSystem.exists(recording.memo.path) ? .damaged : .missing)
        let id = recording.memo.id
        // Measured before taking the write lock, so other processes wait only for the update.
        let scan = probe.info == nil || measured != nil ? nil : scanAudio(path: probe.path)
        let statistics = probe.info == nil ? nil : measured ?? scan?.statistics
        let peakDB = peakDB ?? scan?.peakDB
        let finished = try write { () throws(MemoLibraryError) -> Memo in
            try indexCall { () throws(SQLiteError) in
                try index.updateAudio(
                    id: id, info: probe.info, size: probe.size, peakDB: peakDB, state: state, statistics: statistics)
            }
            // Markers added while it recorded go into the file now that its audio is complete.
            if try !markers(ofMemo: id).isEmpty { _ = storeMarkersInFile(of: try existing(id)) }
            return try existing(id)
        }
        var result = finished
        if finished.title != recording.metadata.title, titleIsWrittenToFile(finished) {
            // Renamed while recording: best effort, the index has the title either way.
            result = (try? rename(id: id, to: finished.title)) ?? finished
        }
        if !result.tags.isEmpty || result.isStarred {
            // Tagged or starred while recording: the same, for the file's comment.
            result = (try? storeTagsInFile(id: id)) ?? result
        }
        return result
    }

    /// Removes a recording that kept nothing: its row, any file, and its lock.
    public func abandonRecording(_ recording: MemoRecording) throws(MemoLibraryError) {
        defer { recording.releaseLock() }
        let path = recording.memo.path
        let id = recording.memo.id
        try write { () throws(MemoLibraryError) in
            try indexCall { () throws(SQLiteError) in try index.remove(id: id) }
        }
        let intermediate = SoundFileRecovery.intermediatePath(for: path)
        for leftover in [path, intermediate, String(intermediate.dropLast(".w64".count)) + ".json"] {
            _ = FileSystem.remove(leftover)
        }
    }
}

extension MemoLibrary {
    /// `recording`, begun in an index that has since been replaced (moved aside and rebuilt by
    /// another process, or deleted with its folder), as this library's index knows it: the row
    /// for its file when the index has one (a rebuild adopts the file), else a new row in state
    /// `recording` under the same file name. The lock stays with the recording.
    /// - Throws: `.readOnly`, `.busy`, `.index`.
    public func rebind(_ recording: MemoRecording) throws(MemoLibraryError) -> MemoRecording {
        guard !isReadOnly else { throw readOnlyRefusal }
        let name = relative(recording.memo)
        var memo = recording.memo
        memo.id = try write { () throws(MemoLibraryError) -> Int64 in
            try indexCall { () throws(SQLiteError) -> Int64 in
                if let row = try index.fileRows().first(where: { $0.path == name }) { return row.id }
                var fresh = recording.memo
                fresh.id = 0
                return try index.insert(fresh, relativePath: name)
            }
        }
        return MemoRecording(
            memo: memo, metadata: recording.metadata, lockPath: recording.lockPath, lockDescriptor: recording.lockDescriptor)
    }
}

/// A file this process still has open after its name was deleted (its folder removed by
/// another process while a recording wrote into it), held by a descriptor of its own so that
/// what the writer puts into it can be copied back under its name once the writer has closed it.
public final class DeletedFileHold: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Holds the deleted file this process has open as `path`; `nil` when it has none (the
    /// name still exists, or no descriptor of this process names it).
    public init?(path: String) {
        guard let descriptor = FileSystem.openDeletedFile(named: path) else { return nil }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        FileSystem.close(descriptor)
    }

    /// Writes the file's contents, as they are now, to `path` (creating its folder; never
    /// replacing a file there), flushed to disk.
    /// - Throws: `.file` naming the path and the cause (a full disk, permissions).
    public func restore() throws(MemoLibraryError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !FileSystem.exists(folder) {
            let code = FileSystem.createDirectory(folder)
            if code != 0 { throw .folderUnavailable(path: folder, reason: FileSystem.describe(code)) }
        }
        let code = FileSystem.copy(descriptor: descriptor, toNewFile: path)
        if code != 0 { throw .file(path: path, reason: FileSystem.describe(code), osError: code) }
    }
}
