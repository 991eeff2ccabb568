import Foundation
import SoundFiles
import TestSupport
import Testing
@testable import MemoLibrary

/// The index held locked by another process for 3 s of real time.
@Suite struct IndexRepairTests {
    @Test func lockedIndexReadsButWritesFailAsBusy() throws {
        let fixture = try LibraryFixture()
        let first = try fixture.open()
        let memo = try fixture.record(into: first, title: "Locked")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "(echo 'BEGIN IMMEDIATE; INSERT INTO memos (title, created, sample_rate, channels, format, encoding, path, state) VALUES (\"x\", 0, 1, 1, \"wav\", \"pcm16\", \"held.wav\", \"missing\");'; echo '.shell touch \(fixture.folder)/held'; sleep 3; echo 'ROLLBACK;') | sqlite3 '\(fixture.folder)/index.sqlite3'"]
        try holder.run()
        defer { holder.waitUntilExit() }
        // The lock is held once sqlite3 has run the statements before `.shell`.
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "\(fixture.folder)/held") {
            guard Date() < deadline else {
                throw GaveUpWaiting(what: "sqlite3 to hold the index's write lock (\(fixture.folder)/held)", seconds: 10)
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let second = try fixture.open(busyTimeout: .milliseconds(200))
        #expect(try second.memos().map(\.title) == ["Locked"], "readers are not blocked (WAL)")
        #expect {
            try second.rename(id: memo.id, to: "New")
        } throws: { error in
            guard case .busy = error as? MemoLibraryError else { return false }
            return "\(error)".contains("locked by another process")
        }
    }
}
