import CFFmpegLoader

/// FFmpeg's libraries, which the process loads at its first M4A file or stream rather than at
/// start (CFFmpegLoader): a run that never touches FFmpeg never loads them nor the ~130
/// libraries they depend on.
///
/// The entry points that start FFmpeg work (`MP4AudioWriter`, `MP4AudioReader`,
/// `MP4TitleRewrite`, Streaming's `StreamConnection`) ask `loadFailure()` first and throw their
/// own error with its text; past them, every FFmpeg call finds the libraries loaded.
public enum FFmpegLibraries {
    /// Loads the libraries and installs FFmpeg's quiet log, once per process (a later call
    /// only reads the outcome).
    ///
    /// - Returns: nil when they are loaded; else why not, naming the library
    ///   ("FFmpeg cannot be loaded: libavformat.so.59: file too short").
    public static func loadFailure() -> String? {
        guard vm_ffmpeg_load() != 0 else { return nil }
        return "FFmpeg cannot be loaded: " + String(cString: vm_ffmpeg_load_error())
    }
}
