import Foundation
import Glibc
import Platform
import TestSupport
import Testing

/// `FileHolders.others(holding:)` reads `/proc/PID/fd`: another process that has the file open
/// is found, this process never is, and a file nobody holds or that is not there has none.
@Suite struct FileHoldersTests {
    @Test func anotherProcessHoldingTheFileIsFoundUntilItLetsGo() throws {
        let directory = try TemporaryDirectory(prefix: "voicememo-file-holders")
        let path = directory.file("memo.wav")
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: path))
        #expect(FileHolders.others(holding: path).isEmpty, "nobody holds it yet")

        let ownDescriptor = open(path, O_RDONLY)
        defer { close(ownDescriptor) }
        #expect(FileHolders.others(holding: path).isEmpty, "this process is never one of the others")

        // `tail -f` keeps the file open until it is killed (SIGKILL: the child inherits the test
        // runner's blocked signals, SIGTERM among them).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/tail")
        holder.arguments = ["-f", path]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer {
            if holder.isRunning { kill(holder.processIdentifier, SIGKILL) }
            holder.waitUntilExit()
        }
        #expect(waitUntil { FileHolders.others(holding: path) == [holder.processIdentifier] })

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(FileHolders.others(holding: path).isEmpty, "an ended process holds nothing")
        #expect(FileHolders.others(holding: directory.file("absent.wav")).isEmpty)
    }
}
