import SoundFiles

/// The words for a recording whose encode stopped for want of room: the audio is whole in its
/// intermediate, and becomes a playable file once there is room. One wording for `record`,
/// the library's recovery report and the app.
public enum WaitingForRoomText {
    /// Why the encode stopped, without the intermediate's hidden name: "the disk is full (252 kB
    /// left, kept free for the memo index)" or "the file size limit was reached".
    public static func cause(_ error: SoundFileError) -> String {
        switch error.kind {
        case .fileTooLarge: "the file size limit was reached"
        default: "the disk is full"
        }
    }

    /// For `record`: the recording stopped, nothing of it is lost, and how it becomes playable.
    ///
    /// - Parameters:
    ///   - recorded: the recording's length, as the user reads it ("00:01:48").
    ///   - format: the final file's format name ("MP3").
    ///   - memo: whether it is a memo (the library recovers it) or an `--output` file.
    ///   - intermediate: where an `--output` file's audio is kept (the user's own folder).
    public static func recordingKept(
        cause: SoundFileError, recorded: String, format: String, memo: Bool, intermediate: String
    ) -> String {
        let stop = "\(Self.cause(cause)), so the recording stopped and could not be encoded as \(format) yet"
        guard memo else {
            return stop + "; all \(recorded) of it is kept, unencoded, in \(intermediate) (a W64 file that "
                + "sox and ffmpeg play); the \(format) file beside it is not written"
        }
        return stop + "; all \(recorded) of it is kept and becomes a playable memo once there is room: "
            + "free some space, then run `voicememo recover` (`voicememo list` and the app do it too)"
    }

    /// For opening the library: a memo still waiting for room.
    public static func stillWaiting(memoID: Int64, title: String, cause: SoundFileError) -> String {
        "memo \(memoID) “\(title)” is kept whole but not encoded yet: \(Self.cause(cause)); "
            + "it becomes playable at the next `voicememo recover` (or `list`) once there is room"
    }
}
