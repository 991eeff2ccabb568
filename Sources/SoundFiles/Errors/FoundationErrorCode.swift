import Foundation

/// The `errno` behind an error Foundation threw for a file (`Data.write`, `FileHandle`,
/// `String(contentsOfFile:)`), so it can be worded like every other file error (`strerror`,
/// `ENOSPC` recognised as a full disk) instead of printing Foundation's own text — its
/// "Error Domain=NSCocoaErrorDomain Code=4 …" names the hidden files it was writing.
public enum FoundationErrorCode {
    /// The POSIX code of `error` or of its underlying error; for a Cocoa file error without
    /// one, the code its kind stands for; `nil` when nothing says.
    public static func of(_ error: Error) -> Int32? {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(clamping: error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(clamping: underlying.code)
        }
        guard error.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteFileExists: return EEXIST
        case .fileReadTooLarge: return EFBIG
        default: return nil
        }
    }
}

extension SoundFileError {
    /// A failure Foundation reported while `doing` something to `path`, in our terms: the
    /// `errno` it carries (a full disk is `.diskFull` for `.write`), never Foundation's text.
    static func foundation(_ error: Error, kind: Kind, path: String, doing: String) -> SoundFileError {
        let code = FoundationErrorCode.of(error)
        let kind = kind == .write ? writeKind(forOSError: code) : kind
        return SoundFileError(kind: kind, path: path, detail: doing, osError: code)
    }
}
