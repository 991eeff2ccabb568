import Foundation
import Testing

/// Memos no recorder makes (1 Hz, dropped in from elsewhere) and memos in Recently Deleted get
/// the words that fit them.
@Suite struct OddMemoWordsTests {
    /// A 3-sample WAV at 1 Hz, dropped into the library and adopted.
    private func oneHertzMemo(_ sandbox: VoiceMemoSandbox) throws {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + 6))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16))
        append(UInt16(1)); append(UInt16(1)); append(UInt32(1)); append(UInt32(2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(6))
        for sample: Int16 in [0, 1000, -1000] { append(sample) }
        try data.write(to: sandbox.libraryDirectory.appendingPathComponent("onehz.wav"))
        #expect(try sandbox.listedMemos().count == 1)
    }

    @Test func aOneHertzMemoIsRefusedForWhatItIs() throws {
        let sandbox = try VoiceMemoSandbox()
        try oneHertzMemo(sandbox)
        let exported = try sandbox.run("export", "1", sandbox.file("copy.flac"))
        #expect(exported.status == 1, "\(exported)")
        #expect(exported.standardError.contains("cannot be exported as FLAC: rate 1 Hz"), "\(exported.standardError)")
        #expect(!exported.standardError.contains("--format flac"), "no advice to do what failed: \(exported.standardError)")
        let trimmed = try sandbox.run("trim", "1", "--to", "2")
        #expect(trimmed.status == 1, "\(trimmed)")
        #expect(trimmed.standardError.contains("cannot be written again as WAV: rate 1 Hz"), "\(trimmed.standardError)")
        #expect(!trimmed.standardError.contains("--from must come before --to"), "\(trimmed.standardError)")
    }

    @Test func playingAMemoInRecentlyDeletedSaysWhereItIs() throws {
        let sandbox = try VoiceMemoSandbox()
        let id = try sandbox.recordMemo(title: "gone")
        #expect(try sandbox.run("delete", id).status == 0)
        for arguments in [["play", id, "--device", "null"], ["analyze", id]] {
            let outcome = try sandbox.run(arguments: arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome)")
            #expect(outcome.standardError.contains("it is in Recently Deleted ('voicememo restore \(id)' brings it back)"), "\(arguments): \(outcome.standardError)")
        }
    }
}
