import Foundation

/// Moments the product itself records, appended to the file named by `VOICEMEMO_EVENT_LOG`
/// (one `NAME UNIX-SECONDS` line each, written at once with `write(2)`, so a line survives a
/// kill -9 right after it). Tests measure from these instead of from when a polling shell
/// noticed something; without the variable nothing is written.
///
/// Events of `record`: `input_opening` (before the input is opened: a stream's connect),
/// `first_frame` (when the first frame of the file was captured), and every 100 ms `recorded
/// FRAMES` (how many frames the recording had taken at that moment: a kill -9 after it may
/// lose only what came in the 0.5 s before the kill). Of `play URL`: `stream_connecting`,
/// `stream_buffering` (the server's reply is in) and `stream_playing` (the device starts), the
/// last two again after each reconnect. Of
/// `transcribe`: `transcribed FRACTION` after each block of the file decoded.
public struct EventLog: Sendable {
    private let descriptor: Int32

    /// Opens the log named in `environment`, or nothing when the variable is unset or the
    /// file cannot be opened (the log is a diagnostic: it never stops a recording).
    public init?(environment: [String: String]) {
        guard let path = environment["VOICEMEMO_EVENT_LOG"], !path.isEmpty else { return nil }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Appends `name` at `time` (Unix seconds).
    public func note(_ name: String, at time: Double = Date().timeIntervalSince1970) {
        let line = String(format: "%@ %.6f\n", name, time)
        _ = line.withCString { write(descriptor, $0, strlen($0)) }
    }

    public func close() {
        _ = Glibc.close(descriptor)
    }
}
