import Foundation
import Glibc
import MemoLibrary
import SoundFiles
import Vocabulary

/// `export MEMO -`: the copy goes to standard output, for a pipe (`… | ffmpeg -i - …`).
///
/// The copy is written whole into a private temporary folder first (as any export: every
/// format, headers with their final sizes, M4A's index at its end), then streamed to standard
/// output and removed; nothing else is printed there. A terminal is refused: the bytes of a
/// sound file would only garble it.
enum ExportToStandardOutput {
    /// The PATH that means standard output.
    static let name = "-"

    static func run(_ options: ExportOptions, context: CommandContext) throws -> ExitCode {
        let console = context.console
        guard !console.isOutputTerminal else {
            throw CommandFailure(
                "standard output is a terminal, and a sound file's bytes would only garble it: "
                    + "pipe it (voicememo export \(TerminalText.safe(options.memo)) - | …) or give a file name")
        }
        if options.labels == name {
            throw CommandFailure(
                "the copy goes to standard output already; give --labels a file name", exitCode: .usageError)
        }
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in try library.memo(matching: options.memo) }
        let format = options.format ?? memo.format
        let folder = try privateFolder()
        let file = folder + "/copy." + (format.fileExtensions.first ?? format.rawValue)
        defer {
            unlink(file)
            rmdir(folder)
        }
        let line = console.isErrorTerminal && options.loudness != nil ? LevelBars(console: console, channels: 0) : nil
        var shown = ""
        let normalised = try LibraryAccess.perform { () throws(MemoLibraryError) in
            var plan = try library.planExport(
                memo, to: file, labels: options.labels, format: format, replacing: options.force)
            plan.loudness = options.loudness
            plan.enhance = options.enhance
            let leftovers = ([file] + [plan.labels?.target].compactMap { $0 }).flatMap(ExportLeftovers.temporaries(for:))
            return try SignalCleanup.removing(leftovers + [file, folder]) { () throws(MemoLibraryError) in
                try library.perform(plan) { progress in
                    let text = ExportProgressLine.text(memo, progress)
                    if let line, text != shown {
                        shown = text
                        line.redraw(text)
                    }
                }
            }
        }
        if !shown.isEmpty { line?.clear() }
        try stream(file, folder: folder, console: console)
        if let normalised {
            console.printErrorMessage("note: " + CommandReply.normalisation(normalised))
        }
        if console.isErrorTerminal {
            console.printErrorMessage(
                "exported “\(TerminalText.safe(memo.title))” (id \(memo.id)) to standard output as \(format.displayName)")
        }
        return .success
    }

    /// A new folder only this user can enter, in `$TMPDIR` (else `/tmp`).
    private static func privateFolder() throws -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/voicememo-export-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            let cause = String(cString: strerror(errno))
            throw CommandFailure("cannot make a temporary folder in \(TerminalText.safe(base)) for the copy: \(cause)")
        }
        return String(cString: made)
    }

    /// Copies `file` to standard output; it is removed (with `folder`) as soon as it is open,
    /// so a reader that leaves early (`| head -c 4`) leaves nothing behind either.
    private static func stream(_ file: String, folder: String, console: Console) throws {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot read the copy back (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        unlink(file)
        rmdir(folder)
        // A reader that closes the pipe is an answer (EPIPE), not a reason to die unheard.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot read the copy back (\(String(cString: strerror(errno))))")
            }
            if count == 0 { return }
            let failure = buffer.withUnsafeBytes { console.writeOutputBytes(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if failure == EPIPE {
                throw CommandFailure("standard output was closed after \(total) bytes of the copy; the rest was not written")
            }
            if failure != 0 {
                throw CommandFailure("cannot write the copy to standard output: \(String(cString: strerror(failure)))")
            }
            total += count
        }
    }
}

/// Says what `export` did with a name whose extension is no sound format's (`out.xyz`): it
/// added the format's (`out.xyz.flac`), so the copy is not where the person looks for it.
enum ExportNameNote {
    static func text(given: String, written: String) -> String? {
        let name = URL(fileURLWithPath: given).lastPathComponent
        let stem = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
        let ext = URL(fileURLWithPath: name).pathExtension
        guard !ext.isEmpty, !stem.isEmpty, !given.hasSuffix("/"), written.hasPrefix(given + ".") else { return nil }
        return "note: “.\(TerminalText.safe(ext))” is not a sound file extension, so the copy is "
            + "\(TerminalText.safe(written)) (the extension names the format: .flac, .mp3, .wav …)"
    }
}
