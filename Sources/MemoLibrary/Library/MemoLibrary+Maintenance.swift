import Foundation
import Vocabulary
import Metering
import SoundFiles

extension MemoLibrary {
    /// SQLite's `PRAGMA integrity_check` on the index: "ok", or what it found damaged.
    package func integrityCheck() throws(MemoLibraryError) -> String {
        try indexCall { () throws(SQLiteError) in try index.database.query("PRAGMA integrity_check").first?.text(0) ?? "" }
    }

    /// Start-up maintenance: recover dead recordings, reconcile the index with the files, purge
    /// memos deleted more than 30 days before `now`.
    ///
    /// Safe while other processes record into the library: a recording's lock file is `flock`ed
    /// by its process for as long as it runs (the kernel drops the lock when the process dies,
    /// kill -9 included), so only recordings whose lock can be taken are recovered.
    ///
    /// - Parameter rows: the index's rows as just read by the opener, reused when recovery
    ///   changed nothing (saves reading 10 000 rows twice).
    func runMaintenance(now: Date, rows: [MemoIndex.FileRow]? = nil, recovery: Recovery) throws(MemoLibraryError) {
        removeAbandonedCopies()
        switch recovery {
        case .atOpening:
            _ = try recoverDeadRecordings(progress: nil)
        case .later:
            maintenance.pendingRecoveries = try deadRecordings().map(\.id)
        }
        try reconcileFiles(now: now, rows: maintenance.recovered.isEmpty ? rows : nil)
        maintenance.purged = try purgeDeleted(before: now.addingTimeInterval(-Self.recentlyDeletedLifetime))
    }

    /// The slow part of start-up maintenance, for a library opened with `recovery: .later`:
    /// recovers the recordings whose process died (`MaintenanceReport.pendingRecoveries`),
    /// encoding what a killed MP3 or Ogg Vorbis recording left in its intermediate and
    /// measuring each file. Until a memo is recovered its row stays `recording` and other
    /// processes leave it alone (its lock is held while it is repaired).
    ///
    /// - Parameter progress: called before each memo and after every slice of an encode;
    ///   returning false stops at once: the memo being encoded stays `recording` with its
    ///   intermediate, for the next attempt. Called on this thread.
    /// - Returns: the memos recovered (also appended to `maintenance.recovered`);
    ///   `maintenance.pendingRecoveries` keeps those left.
    /// - Throws: `MemoLibraryError` when the index cannot be written.
    @discardableResult
    public func finishPendingRecoveries(progress: @escaping (RecoveryProgress) -> Bool = { _ in true })
        throws(MemoLibraryError) -> [Int64]
    {
        guard !isReadOnly else { return [] }
        let recovered = try recoverDeadRecordings(progress: progress)
        maintenance.pendingRecoveries = try deadRecordings().map(\.id)
        return recovered
    }

    // MARK: Abandoned copies

    /// Removes the copies a rename or an edit was preparing (`.name.retag-PID.ext`,
    /// `.name.edit-PID.ext` and a lossy edit's intermediate beside it, in the folder and in
    /// Recently Deleted) whose process is gone: killed before it could put the copy in place or
    /// remove it. The original is whole (the copy is renamed over it only once complete), so
    /// nothing is lost. A copy whose process still runs is left to it.
    private func removeAbandonedCopies() {
        for directory in [folder, trashFolder] {
            for entry in FileSystem.hiddenFiles(in: directory) {
                guard let (owner, origin) = Self.abandonedCopyOwner(entry.name), !FileSystem.processIsAlive(owner) else { continue }
                let path = directory + "/" + entry.name
                if FileSystem.remove(path) == 0 {
                    maintenance.removedCopies.append(MaintenanceReport.RemovedCopy(path: path, size: entry.size ?? 0, origin: origin))
                }
            }
        }
    }

    /// The process that made the hidden copy `name`, and what it was making; `nil` for
    /// another hidden file.
    private static func abandonedCopyOwner(_ name: String) -> (Int32, MaintenanceReport.RemovedCopy.Origin)? {
        if let owner = AtomicReplacement.ownerProcessID(ofTemporaryName: name, purpose: retagPurpose) { return (owner, .retag) }
        if let owner = editOwnerProcessID(ofTemporaryName: name) { return (owner, .edit) }
        return nil
    }

    // MARK: Dead recordings

    /// Rows still `recording` whose recorder is gone (their lock can be taken now).
    private func deadRecordings() throws(MemoLibraryError) -> [(id: Int64, path: String)] {
        let rows = try indexCall { () throws(SQLiteError) in try index.recordingRows() }
        return rows.filter { row in
            let lockPath = lockPath(forRelativePath: row.path)
            let existed = FileSystem.exists(lockPath)
            guard case .success(let lock) = FileSystem.lockFile(lockPath, wait: false) else { return false }
            FileSystem.unlock(lock)
            // Only a killed recorder leaves its lock file (recovery tells a crash by it).
            if !existed { _ = FileSystem.remove(lockPath) }
            return true
        }
    }

    /// Recovers the dead recordings; returns those recovered. A `progress` that answers false
    /// stops the loop (the memo in hand stays `recording`).
    private func recoverDeadRecordings(progress: ((RecoveryProgress) -> Bool)?) throws(MemoLibraryError) -> [Int64] {
        let rows = try indexCall { () throws(SQLiteError) in try index.recordingRows() }
        var recoveredNow: [Int64] = []
        for row in rows {
            let lockPath = lockPath(forRelativePath: row.path)
            // A recorder that finished removes its lock file, one that was killed cannot: a row
            // still `recording` without one was left by a full disk (`finishRecording`).
            let afterCrash = FileSystem.exists(lockPath)
            guard case .success(let lock) = FileSystem.lockFile(lockPath, wait: false) else {
                continue  // its recorder is alive (or the lock cannot be taken: leave it be)
            }
            var interrupted = false
            defer {
                // An interrupted repair keeps its lock file (only the flock goes), like a killed one.
                if !interrupted { _ = FileSystem.remove(lockPath) }
                FileSystem.unlock(lock)
            }
            let path = absolute(row.path)
            let encodes = SoundFileRecovery.needsEncoding(path: path)
            let title = (try? indexCall { () throws(SQLiteError) in try index.memo(id: row.id) })??.title ?? row.path
            if encodes, let room = FileSystem.availableBytes(at: folder), room < Self.roomNeededToEncode {
                // Not worth an encode that the disk cannot hold: wait for room as below. What a
                // killed encode left of the final file goes (it is encoded again from the start).
                _ = FileSystem.remove(path)
                maintenance.waitingForRoom.append(.init(
                    memoID: row.id, title: title,
                    cause: SoundFileError(kind: .diskFull, path: path, detail: "\(room / 1024) kB left", osError: ENOSPC)))
                continue
            }
            var report = RecoveryProgress(
                memoID: row.id, title: title, path: path, encodes: encodes, afterCrash: afterCrash, encodedFrames: 0,
                totalFrames: 0)
            if let progress, !progress(report) { return recoveredNow }
            var info: SoundFileInfo?
            var peakDB: Double?
            var statistics: ProgrammeStatistics?
            var state = Memo.State.missing
            if FileSystem.exists(path) || FileSystem.exists(SoundFileRecovery.intermediatePath(for: path)) {
                do {
                    info = try SoundFileRecovery.repair(path: path) { encoded, total in
                        report.encodedFrames = encoded
                        report.totalFrames = total
                        return progress?(report) ?? true
                    }
                    state = .recovered
                    // Its recorder died before storing the peak: measure it, and the real length.
                    if let scan = scanAudio(path: path) {
                        info?.frames = scan.frames
                        peakDB = scan.peakDB
                        statistics = scan.statistics
                    }
                } catch where error.kind == .interrupted {
                    interrupted = true
                    return recoveredNow
                } catch where error.waitsForRoom && SoundFileRecovery.needsEncoding(path: path) {
                    // No room for the final file yet: the recording stays whole in its
                    // intermediate, the row `recording`, for the next attempt (its lock file
                    // goes: from now on it waits for room, it is no crash's).
                    maintenance.waitingForRoom.append(.init(memoID: row.id, title: title, cause: error))
                    continue
                } catch {
                    state = FileSystem.exists(path) ? .damaged : .missing
                }
            }
            let changed = try storeRecovery(
                of: row.id, path: path, info: info, peakDB: peakDB, state: state, statistics: statistics)
            if changed {
                maintenance.recovered.append(row.id)
                recoveredNow.append(row.id)
            }
        }
        return recoveredNow
    }

    /// Stores what recovering memo `id` found (its file at `path`), and puts markers added
    /// before the kill into a repaired file; `false` when its recorder finished meanwhile.
    private func storeRecovery(
        of id: Int64, path: String, info: SoundFileInfo?, peakDB: Double?, state: Memo.State,
        statistics: ProgrammeStatistics?
    ) throws(MemoLibraryError) -> Bool {
        let size = FileSystem.size(of: path) ?? 0
        return try transact { () throws(MemoLibraryError) -> Bool in
            // Its recorder may have finished between our reading the row and taking the lock.
            guard try indexCall({ () throws(SQLiteError) in try index.state(id: id) }) == .recording else {
                return false
            }
            try indexCall { () throws(SQLiteError) in
                try index.updateAudio(id: id, info: info, size: size, peakDB: peakDB, state: state, statistics: statistics)
            }
            // Markers added before the kill go into the repaired file.
            if state == .recovered, try !markers(ofMemo: id).isEmpty { _ = storeMarkersInFile(of: try existing(id)) }
            return true
        }
    }

    /// The free space below which recovery does not start encoding an intermediate: the disk
    /// reserve a recording leaves for the index (`FreeSpaceReserve.defaultBytes`) and a little
    /// of the final file. Below it the encode could only fail.
    static let roomNeededToEncode: Int64 = 512 * 1024

    /// The lock file of the recording whose file is at `relativePath`.
    func lockPath(forRelativePath relativePath: String) -> String {
        lockFolder + "/" + (relativePath.split(separator: "/").last.map(String.init) ?? relativePath) + ".lock"
    }

    // MARK: Files and index

    /// What reconciliation would change.
    private struct Plan {
        var adopt: [(relativePath: String, deleted: Bool)] = []
        var vanished: [Int64] = []
        var reprobe: [(id: Int64, relativePath: String)] = []

        var isEmpty: Bool { adopt.isEmpty && vanished.isEmpty && reprobe.isEmpty }
    }

    /// Adopts unknown audio files, marks rows whose file vanished as missing, re-reads files that
    /// came back or (with `FileCheck.namesAndSizes`) changed size. A quick look first; the write
    /// lock only when something changed.
    ///
    /// - Parameter rows: the index's rows if already read, for the quick look.
    func reconcileFiles(now: Date, rows: [MemoIndex.FileRow]? = nil) throws(MemoLibraryError) {
        guard !(try plan(rows: rows).isEmpty) else { return }
        try transact { () throws(MemoLibraryError) in
            // Again under the write lock: a recorder inserts its row before it creates its file,
            // so every file a committed row names is known here.
            let plan = try plan()
            let (moves, adoptions) = try movedFiles(plan)
            let movedIDs = Set(moves.map(\.id))
            for id in plan.vanished where !movedIDs.contains(id) {
                try indexCall { () throws(SQLiteError) in try index.setState(id: id, .missing) }
                maintenance.missing.append(id)
            }
            for move in moves {
                // The memo's file is where a delete, restore or edit killed between moving it and
                // committing moved it: the row follows the file (nothing is adopted twice).
                let deleted: (Date, DeletionReason)? = move.file.deleted ? (now, .foundInTrash) : nil
                try indexCall { () throws(SQLiteError) in
                    try index.setLocation(id: move.id, relativePath: move.file.relativePath, deleted: deleted)
                }
                try reprobe(id: move.id, relativePath: move.file.relativePath)
            }
            for (id, relativePath) in plan.reprobe {
                try reprobe(id: id, relativePath: relativePath)
            }
            for file in adoptions {
                let (id, readable) = try adopt(relativePath: file.relativePath, deleted: file.deleted, now: now)
                maintenance.adopted.append(id)
                if !readable { maintenance.damaged.append(id) }
            }
        }
    }

    /// Reads the file again (it came back, changed size, or its row now points to it).
    private func reprobe(id: Int64, relativePath: String) throws(MemoLibraryError) {
        let probe = FileProbe(path: absolute(relativePath), timeZone: timeZone)
        var info = probe.info
        let scan = info == nil || !measuresAudio ? nil : scanAudio(path: probe.path)
        if let scan { info?.frames = scan.frames }
        try indexCall { () throws(SQLiteError) in
            try index.updateAudio(
                id: id, info: info, size: probe.size, peakDB: scan?.peakDB, state: info == nil ? .damaged : .complete,
                statistics: scan?.statistics)
        }
        if probe.info == nil { maintenance.damaged.append(id) }
    }

    /// Which of the files to adopt are a known memo's, moved between the library folder and
    /// Recently Deleted by a change that was killed before it committed (the file moves inside
    /// the change's transaction): a row whose file is gone (vanished now, or missing since),
    /// found by the id in the file's comment tag, else by the same file name in the other folder.
    private func movedFiles(_ plan: Plan) throws(MemoLibraryError) -> (
        moves: [(id: Int64, file: (relativePath: String, deleted: Bool))],
        adoptions: [(relativePath: String, deleted: Bool)]
    ) {
        guard !plan.adopt.isEmpty else { return ([], []) }
        let vanished = Set(plan.vanished)
        let rows = try indexCall { () throws(SQLiteError) in try index.fileRows() }
        var lost: [Int64: MemoIndex.FileRow] = [:]
        for row in rows where vanished.contains(row.id) || row.state == .missing { lost[row.id] = row }
        guard !lost.isEmpty else { return ([], plan.adopt) }
        func name(_ path: String) -> Substring { path.split(separator: "/").last ?? "" }
        var moves: [(id: Int64, file: (relativePath: String, deleted: Bool))] = []
        var adoptions: [(relativePath: String, deleted: Bool)] = []
        for file in plan.adopt {
            let tagged = FileProbe(path: absolute(file.relativePath), timeZone: timeZone).taggedID
            let owner =
                tagged.flatMap { lost[$0] }
                ?? lost.values.sorted { $0.id < $1.id }.first { row in
                    name(row.path) == name(file.relativePath) && row.path.hasPrefix(Self.trashFolderName + "/") != file.deleted
                }
            if let owner {
                lost[owner.id] = nil
                moves.append((owner.id, file))
            } else {
                adoptions.append(file)
            }
        }
        return (moves, adoptions)
    }

    private func plan(rows knownRows: [MemoIndex.FileRow]? = nil) throws(MemoLibraryError) -> Plan {
        let rows: [MemoIndex.FileRow]
        if let knownRows {
            rows = knownRows
        } else {
            rows = try indexCall { () throws(SQLiteError) in try index.fileRows() }
        }
        var rowsByPath: [String: MemoIndex.FileRow] = [:]
        rowsByPath.reserveCapacity(rows.count)
        for row in rows {
            rowsByPath[row.path] = row
        }
        var plan = Plan()
        var seen = Set<String>()
        let sizes = fileCheck == .namesAndSizes
        let listing =
            FileSystem.regularFiles(in: folder, sizes: sizes).map { ($0, false) }
            + FileSystem.regularFiles(in: trashFolder, sizes: sizes).map { ($0, true) }
        for (entry, deleted) in listing {
            guard RecordingSettings.inferred(fromPath: entry.name) != nil else { continue }
            let relativePath = deleted ? Self.trashFolderName + "/" + entry.name : entry.name
            seen.insert(relativePath)
            guard let row = rowsByPath[relativePath] else {
                plan.adopt.append((relativePath, deleted))
                continue
            }
            switch row.state {
            case .recording: break
            case .missing: plan.reprobe.append((row.id, relativePath))
            case .complete, .recovered:
                if let size = entry.size, row.size != size { plan.reprobe.append((row.id, relativePath)) }
            case .damaged:
                // Looked at again at every opening, changed or not: the mark may have come from a
                // failure that was not about the file's contents (no file descriptor left, a
                // disk that did not answer), and a header read is cheap.
                if let size = entry.size, row.size != size {
                    plan.reprobe.append((row.id, relativePath))
                } else if FileProbe(path: absolute(relativePath), timeZone: timeZone).info != nil {
                    plan.reprobe.append((row.id, relativePath))
                }
            }
        }
        for row in rows where row.state != .recording && row.state != .missing && !seen.contains(row.path) {
            plan.vanished.append(row.id)
        }
        return plan
    }

    /// Adds a row for an audio file the index does not know: title and date from its tags, else
    /// from its name; its old id when its comment names one that is free.
    private func adopt(relativePath: String, deleted: Bool, now: Date) throws(MemoLibraryError) -> (id: Int64, readable: Bool) {
        let probe = FileProbe(path: absolute(relativePath), timeZone: timeZone)
        var memo = probe.memo(now: now)
        memo.deletedAt = deleted ? now : nil
        memo.deletionReason = deleted ? .foundInTrash : nil
        let scan = probe.info != nil && measuresAudio ? scanAudio(path: probe.path) : nil
        if let scan {
            memo.frames = scan.frames
            memo.duration = memo.sampleRate > 0 ? Double(scan.frames) / Double(memo.sampleRate) : 0
            memo.peakDB = scan.peakDB
            scan.statistics.apply(to: &memo)
        }
        if let id = probe.taggedID, try !indexCall({ () throws(SQLiteError) in try index.contains(id: id) }) {
            memo.id = id
        }
        let row = memo
        let id = try indexCall { () throws(SQLiteError) in try index.insert(row, relativePath: relativePath) }
        if let envelope = scan?.statistics.envelope {
            try indexCall { () throws(SQLiteError) in try index.replaceEnvelope(memoID: id, with: envelope) }
        }
        if probe.info != nil {
            try adoptMarkers(fromFile: probe.path, format: row.format, sampleRate: row.sampleRate, memoID: id)
        }
        return (id, probe.info != nil)
    }

    /// Whether adoption decodes files for their peak, loudness and length (`AudioScan`). Not in
    /// a read-only library: its index lives in memory and is rebuilt at every opening, so
    /// decoding every file each time would make listing it as slow as playing it; the header's
    /// length is used, the peak shows as unknown (−160) and the loudness figures as `nil`.
    var measuresAudio: Bool { !isReadOnly }

    // MARK: Purging

    /// Purges memos deleted before `date` (all deleted memos when `nil`); returns their ids.
    func purgeDeleted(before date: Date?) throws(MemoLibraryError) -> [Int64] {
        let doomed = try indexCall { () throws(SQLiteError) in try index.deleted(before: date) }
        guard !doomed.isEmpty else { return [] }
        return try write { () throws(MemoLibraryError) -> [Int64] in
            // Read again under the lock: another process may have restored or purged some.
            let rows = try indexCall { () throws(SQLiteError) in try index.deleted(before: date) }
            for row in rows {
                try indexCall { () throws(SQLiteError) in try index.remove(id: row.id) }
                let code = FileSystem.remove(absolute(row.path))
                if code != 0 {
                    throw .file(path: absolute(row.path), reason: FileSystem.describe(code), osError: code)
                }
            }
            return rows.map(\.id)
        }
    }

    /// A transaction on the index even in a read-only library (whose index is then in memory).
    func transact<Result>(_ body: () throws(MemoLibraryError) -> Result) throws(MemoLibraryError) -> Result {
        do {
            return try index.database.transaction(body)
        } catch .index(let error) {
            throw libraryError(error)
        }
    }
}

/// Where a slow recovery is (`MemoLibrary.finishPendingRecoveries(progress:)`).
public struct RecoveryProgress: Sendable, Equatable {
    /// The memo being recovered.
    public var memoID: Int64
    public var title: String
    public var path: String
    /// Whether its audio is being encoded from the intermediate a killed recording left (MP3,
    /// Ogg Vorbis, ALAC); otherwise it is only repaired and measured.
    public var encodes: Bool
    /// Whether its recorder was killed; otherwise a full disk stopped its encode, and it
    /// waited for room.
    public var afterCrash: Bool
    /// Frames encoded so far, and to encode (both 0 before the encode starts).
    public var encodedFrames: Int64
    public var totalFrames: Int64

    /// The fraction encoded, 0…1 (0 before the encode starts).
    public var fraction: Double {
        totalFrames > 0 ? min(1, Double(encodedFrames) / Double(totalFrames)) : 0
    }
}
