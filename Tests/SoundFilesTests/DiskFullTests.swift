import TestSupport
import Foundation
import Testing

@testable import SoundFiles

/// Full disk and file-size limit.
///
/// The failures are forced at the one place that calls `sf_writef_*` (`SndFileHandle`), so they
/// are deterministic and touch nothing else in the test process: a real RLIMIT_FSIZE is
/// process-wide and would also break the other tests writing files in parallel.
/// `fileSizeLimitInAChildProcess` covers the real kernel path in a process of its own.
@Suite struct DiskFullTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var format: FileFormat
        var osError: Int32
        var kind: SoundFileError.Kind
        var words: String
        var testDescription: String { "\(format.rawValue) \(kind)" }
    }

    static let cases: [Case] = [
        .init(format: .wav, osError: ENOSPC, kind: .diskFull, words: "No space left on device (ENOSPC)"),
        .init(format: .flac, osError: ENOSPC, kind: .diskFull, words: "No space left on device (ENOSPC)"),
        .init(format: .caf, osError: EFBIG, kind: .fileTooLarge, words: "File too large (EFBIG)"),
        .init(format: .mp3, osError: ENOSPC, kind: .diskFull, words: "No space left on device (ENOSPC)"),
        .init(format: .opus, osError: EFBIG, kind: .fileTooLarge, words: "File too large (EFBIG)"),
    ]

    @Test(arguments: cases)
    func shortWriteNamesTheCauseAndKeepsWhatWasWritten(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let settings = RecordingSettings(format: testCase.format)
        let path = directory.file("memo." + (testCase.format.fileExtensions.first ?? "x"))
        let writer = try SoundFileWriter(path: path, settings: settings)
        writer.forceWriteFailure(afterFrames: 30000, osError: testCase.osError)
        let error = #expect(throws: SoundFileError.self) {
            try Audio.write(writer, frames: 48000, as: settings.preferredSampleFormat)
        }
        #expect(error?.kind == testCase.kind)
        #expect(error?.osError == testCase.osError)
        #expect(error?.description.contains(testCase.words) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains(path) == true || error?.description.contains(writer.recordingPath) == true)
        #expect(writer.framesWritten == 30000)
        try writer.close()

        let reader = try SoundFileReader(path: path)
        let tolerance = RoundTripTests.frameTolerance(settings.encoding)
        #expect(abs(reader.info.frames - 30000) <= tolerance)
        if Sox.isReadable(testCase.format) {
            #expect(try Sox.duration(of: path) != nil, "sox reads the finalised file")
        }
    }
}

extension Sox {
    /// Formats sox 14.4.2 reads (not Opus, MP3 or ALAC).
    static func isReadable(_ format: FileFormat) -> Bool {
        [.wav, .flac, .aiff, .ogg].contains(format)
    }
}

/// A real RLIMIT_FSIZE in a child process: the test binary runs again with only
/// `fileSizeLimitChildBody` selected, so the limit never touches the tests running here.
@Suite struct FileSizeLimitTests {
    static let childVariable = "SOUNDFILES_TESTS_FSIZE_CHILD"
    static let limitBytes: rlim_t = 200_000

    @Test func fileSizeLimitInAChildProcess() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("limited.wav")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "fileSizeLimitChildBody"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = path
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)

        let result = try String(contentsOfFile: path + ".result", encoding: .utf8)
        let fields = result.split(separator: " ").map(String.init)
        try #require(fields.count == 3, "child reported \(result)")
        #expect(fields[0] == SoundFileError.Kind.fileTooLarge.rawValue)
        #expect(fields[1] == String(EFBIG))
        let written = try #require(Int64(fields[2]))
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.frames == written)
        #expect(written > 40000, "about 200 kB of 4-byte frames")
        let duration = try #require(try Sox.duration(of: path))
        #expect(abs(duration - Double(written) / 48000) < 0.001)
    }

    /// Runs only in the child: limits the file size, ignores SIGXFSZ, records until the limit.
    /// Outside the child it is reported as skipped (never as a pass that checked nothing).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil,
        "runs only as the child process of fileSizeLimitInAChildProcess"))
    func fileSizeLimitChildBody() throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.childVariable])
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        limit.rlim_cur = Self.limitBytes
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        let writer = try SoundFileWriter(path: path, settings: RecordingSettings(format: .wav))
        var report = "none"
        do {
            try Audio.write(writer, frames: 48000 * 5, as: .int16)
        } catch let error as SoundFileError {
            report = "\(error.kind.rawValue) \(error.osError ?? 0) \(writer.framesWritten)"
        }
        try writer.close()
        limit.rlim_cur = limit.rlim_max
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        try report.write(toFile: path + ".result", atomically: true, encoding: .utf8)
    }
}
