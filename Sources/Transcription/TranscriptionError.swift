import SoundFiles

/// Why a transcription could not be made; `description` is the sentence a person reads.
public enum TranscriptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file of the speech model is missing (the Debian package `pocketsphinx-en-us` provides it).
    case modelMissing(directory: String, missingPath: String)
    /// PocketSphinx refused a call: `ps_init` returned NULL (the model files are unreadable or
    /// do not belong together), or `ps_start_utt` / `ps_process_raw` / `ps_end_utt` returned < 0.
    case recognizer(call: String, code: Int32)
    /// libsamplerate refused (`src_new` / `src_process` error code, worded by `src_strerror`).
    case resampling(ResamplingError)
    /// The audio file could not be read.
    case sound(SoundFileError)
    /// The file holds no audio frames.
    case noAudio(path: String)
    /// The caller's `shouldStop` answered true: nothing was kept.
    case cancelled

    /// The Debian package that provides the default English model.
    public static let modelPackage = "pocketsphinx-en-us"

    /// The same in fewer words, for a status line of one or two rows: a missing model names
    /// its folder and the package; the others are as `description` words them.
    public var briefDescription: String {
        switch self {
        case .modelMissing(let directory, _):
            return "no speech model in \(directory); install \(Self.modelPackage) or set transcribe.model"
        default:
            return description
        }
    }

    public var description: String {
        switch self {
        case .modelMissing(let directory, let missingPath):
            return "the speech model in \(directory) is incomplete or missing (\(missingPath) is not there or empty); "
                + "install the Debian package \(Self.modelPackage) (apt-get install \(Self.modelPackage)) "
                + "or set transcribe.model in the config to a PocketSphinx model folder"
        case .recognizer(let call, let code):
            if call == "ps_init" {
                return "PocketSphinx could not load the speech model (ps_init failed); "
                    + "reinstall \(Self.modelPackage) or check transcribe.model in the config"
            }
            return "PocketSphinx failed in \(call) (code \(code))"
        case .resampling(let error):
            return error.description
        case .sound(let error):
            return error.description
        case .noAudio(let path):
            return "\(path) holds no audio to transcribe"
        case .cancelled:
            return "transcription was stopped before it finished"
        }
    }
}

/// A libsamplerate error: its code and `src_strerror`'s words for it.
public struct ResamplingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code libsamplerate returned (`src_new`'s `error`, `src_process`'s result).
    public let code: Int32
    /// What libsamplerate says about it.
    public let message: String

    public var description: String {
        "resampling to 16 kHz failed: \(message) (libsamplerate error \(code))"
    }
}
