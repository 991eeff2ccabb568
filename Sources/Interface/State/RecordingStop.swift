/// Why a recording that was saved stopped (or was moved) on its own: what
/// `Action.recordingStoppedOnError` carries, worded for the status line by `reason`.
public struct RecordingStop: Sendable, Equatable {
    /// The recorder's error as its module words it ("the disk is full"), the recording's path
    /// shortened to its file name; or, when a full disk stopped the encoder, the whole
    /// explanation that the recording waits for room.
    public var error: String?
    /// The library folder deleted while recording (and made again, the memo copied back).
    public var deletedLibraryFolder: String?

    public init(error: String? = nil, deletedLibraryFolder: String? = nil) {
        self.error = error
        self.deletedLibraryFolder = deletedLibraryFolder
    }

    /// Whether there is anything to say: a recording stopped by `s` with nothing wrong is
    /// just saved.
    public var isEmpty: Bool { error == nil && deletedLibraryFolder == nil }

    /// "the disk is full; the library folder /home/ana/memos was deleted while recording (it is
    /// made again)".
    public var reason: String {
        [error, deletedLibraryFolder.map { "the library folder \($0) was deleted while recording (it is made again)" }]
            .compactMap { $0 }.joined(separator: "; ")
    }
}
