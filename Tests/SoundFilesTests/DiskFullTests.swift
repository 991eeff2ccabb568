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
