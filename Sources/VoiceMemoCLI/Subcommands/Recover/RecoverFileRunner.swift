import Foundation
import MemoLibrary
import Metering
import Platform
import SoundFiles
import Vocabulary

/// `recover FILE`: finishes a recording `record --output FILE` was making when it was killed,
/// from the intermediate it kept beside the file (MP3, Ogg Vorbis, M4A, CAF: `.FILE.partial.w64`
/// and its recipe), as opening the library does for a memo. A recording still being written
/// (a process has the intermediate open) is left alone.
enum RecoverFileRunner {
    static func run(_ file: String, context: CommandContext) throws -> ExitCode {
        let console = context.console
        let intermediate = SoundFileRecovery.intermediatePath(for: file)
        guard FileManager.default.fileExists(atPath: intermediate) else {
            console.printErrorMessage("nothing to recover: no recording was left beside \(file)")
            return .success
        }
        // The file is written as `record --output --force` would write it: never inside the
        // library (its memos are `voicememo recover` without FILE's), never a device, a FIFO or
        // a hard link to a memo's file or the index.
        _ = try LibraryAccess.perform { () throws(MemoLibraryError) in
            try OutputDestination.check(file, libraryFolder: LibraryLocation.folder(environment: context.environment), replacing: true)
        }
        let holders = FileHolders.others(holding: intermediate)
        if let holder = holders.first {
            throw CommandFailure("\(file) is still being recorded (process \(holder)); nothing was changed")
        }
        StopSignals.install()
        defer { StopSignals.uninstall() }
        console.printErrorMessage("recovering \(file): encoding it from what the recording left…")
        var shownTenth = -1
        let info: SoundFileInfo
        do {
            info = try SoundFileRecovery.repair(path: file) { encoded, total in
                if StopSignals.pending != nil { return false }
                let tenth = total > 0 ? Int(Double(encoded) / Double(total) * 10) : 0
                if tenth > shownTenth, tenth < 10 {
                    shownTenth = tenth
                    console.printErrorMessage("  encoding \(file): \(tenth * 10) %")
                }
                return true
            }
        } catch where error.kind == .interrupted {
            console.printErrorMessage("stopped recovering; \(file)'s recording is kept beside it for the next time")
            return .interrupted
        } catch {
            throw CommandFailure("cannot recover \(file): \(error.description)")
        }
        console.printErrorMessage("recovered \(file) (\(DisplayFormat.elapsedTime(seconds: info.duration)))")
        return .success
    }

    /// Why `record --output` must not write to `output`: a killed recording's audio waits
    /// beside it (`nil` when none, or when its recording still runs, which the writer's own
    /// checks meet).
    static func waitingRecording(at output: String) -> String? {
        let intermediate = SoundFileRecovery.intermediatePath(for: output)
        guard FileManager.default.fileExists(atPath: intermediate), FileHolders.others(holding: intermediate).isEmpty else {
            return nil
        }
        return "a recording into \(output) was killed and its audio waits beside it "
            + "(\(URL(fileURLWithPath: intermediate).lastPathComponent)): `voicememo recover \(output)` finishes it; "
            + "nothing was recorded, even with --force"
    }
}
