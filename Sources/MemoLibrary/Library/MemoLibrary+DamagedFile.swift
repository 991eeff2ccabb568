import SoundFiles

extension MemoLibrary {
    /// Why a `damaged` memo cannot be used, with the reader's own words for its file (which
    /// name the file and the cause: "…/cut.m4a is damaged: the MP4 file is truncated…").
    static func damagedReason(of memo: Memo) -> String {
        do {
            try SoundFileReader(path: memo.path).close()
        } catch {
            return "its file cannot be read as audio (\(error))"
        }
        return "its file could not be read as audio when the library last looked (\(memo.path))"
    }
}
