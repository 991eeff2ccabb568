import Foundation

/// A failure reading, writing or repairing a sound file (the libsndfile domain).
///
/// Carries the path, libsndfile's own text (`sf_strerror`) and the OS error (`errno`) where known;
/// `description` is the sentence a person reads.
public struct SoundFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: String, Sendable, Hashable {
        /// The file could not be opened or created (missing, a directory, no permission).
        case cannotOpen
        /// The file is not in a format or encoding libsndfile reads (SF_ERR_UNRECOGNISED_FORMAT,
        /// SF_ERR_UNSUPPORTED_ENCODING), or the settings are refused.
        case unsupported
        /// A write failed for a reason other than a full disk or a size limit.
        case write
        /// A write stopped short because the disk is full (ENOSPC, EDQUOT).
        case diskFull
        /// A write stopped short at the file size limit (EFBIG, RLIMIT_FSIZE with SIGXFSZ ignored).
        case fileTooLarge
        /// A write stopped at the most audio the format's 32-bit sizes can describe (AIFF, WAV
        /// in IMA ADPCM: `RecordingSettings.maximumFrames`); what came before is in the file.
        case formatSizeLimit
        /// A read or seek failed.
        case read
        /// The file is empty or damaged beyond what libsndfile accepts (SF_ERR_MALFORMED_FILE).
        case corrupt
        /// The caller stopped the work (a recovery's encode, on Ctrl-C); nothing was lost and
        /// it can be done again.
        case interrupted
    }

    public var kind: Kind
    public var path: String

    /// Whether the failure is for want of room (a full disk, a file size limit): the same
    /// work succeeds once there is room.
    public var waitsForRoom: Bool {
        kind == .diskFull || kind == .fileTooLarge
    }
    /// Our own explanation of the cause, if we have one.
    public var detail: String?
    /// libsndfile's text for the error (`sf_strerror`), if it gave one.
    public var libraryMessage: String?
    /// The OS error number (`errno`) behind the failure, if known.
    public var osError: Int32?

    public init(kind: Kind, path: String, detail: String? = nil, libraryMessage: String? = nil, osError: Int32? = nil) {
        self.kind = kind
        self.path = path
        self.detail = detail
        self.libraryMessage = libraryMessage
        self.osError = osError
    }

    /// The symbolic name of `osError`, e.g. "ENOSPC".
    public var osErrorName: String? {
        guard let osError else { return nil }
        return Self.errnoNames[osError] ?? "errno \(osError)"
    }

    public var description: String {
        var text = headline
        var causes: [String] = []
        if let detail { causes.append(detail) }
        if let osError {
            let osText = String(cString: strerror(osError))
            causes.append("\(osText) (\(osErrorName ?? "errno \(osError)"))")
        }
        if let libraryMessage, !causes.contains(where: { $0.hasPrefix(libraryMessage) }) {
            causes.append("libsndfile: \(libraryMessage)")
        }
        if !causes.isEmpty {
            text += ": " + causes.joined(separator: "; ")
        }
        return text
    }

    private var headline: String {
        switch kind {
        case .cannotOpen: "cannot open \(path)"
        case .unsupported: "cannot use \(path)"
        case .write: "writing \(path) failed"
        case .diskFull: "the disk is full; writing \(path) stopped"
        case .fileTooLarge: "the file size limit was reached; writing \(path) stopped"
        case .formatSizeLimit: "\(path) reached the 4 GiB its format can hold; writing stopped"
        case .read: "reading \(path) failed"
        case .corrupt: "\(path) is damaged"
        case .interrupted: "repairing \(path) was interrupted"
        }
    }

    private static let errnoNames: [Int32: String] = [
        ENOENT: "ENOENT", EACCES: "EACCES", EPERM: "EPERM", EISDIR: "EISDIR", ENOTDIR: "ENOTDIR",
        ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EFBIG: "EFBIG", EIO: "EIO", EROFS: "EROFS",
        EMFILE: "EMFILE", ENAMETOOLONG: "ENAMETOOLONG", EEXIST: "EEXIST", EINVAL: "EINVAL",
    ]

    /// The kind a short write with this OS error is.
    static func writeKind(forOSError osError: Int32?) -> Kind {
        switch osError {
        case ENOSPC, EDQUOT: .diskFull
        case EFBIG: .fileTooLarge
        default: .write
        }
    }
}
