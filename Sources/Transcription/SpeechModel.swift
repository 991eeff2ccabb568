import Foundation

/// A PocketSphinx model on disk: the acoustic model folder, the language model and the
/// pronunciation dictionary. English only: Debian 12 packages no other language.
public struct SpeechModel: Sendable, Equatable {
    /// Where Debian's `pocketsphinx-en-us` installs the US English model.
    public static let defaultDirectory = "/usr/share/pocketsphinx/model/en-us"

    /// The folder holding the three parts.
    public let directory: String
    /// `-hmm`: the acoustic model folder.
    public let acousticModel: String
    /// `-lm`: the n-gram language model.
    public let languageModel: String
    /// `-dict`: the pronunciation dictionary.
    public let dictionary: String

    /// The model in `directory`, laid out as `pocketsphinx-en-us` lays it out
    /// (`en-us/`, `en-us.lm.bin`, `cmudict-en-us.dict`).
    ///
    /// - Throws: `TranscriptionError.modelMissing` naming the first part that is not there.
    public init(directory: String = SpeechModel.defaultDirectory) throws(TranscriptionError) {
        let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        self.directory = base
        acousticModel = base + "/en-us"
        languageModel = base + "/en-us.lm.bin"
        dictionary = base + "/cmudict-en-us.dict"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .modelMissing(directory: base, missingPath: base)
        }
        // An empty part is as good as none (and an empty language model makes SphinxBase exit).
        for part in [acousticModel + "/mdef", acousticModel + "/means", languageModel, dictionary] {
            let size = (try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int) ?? nil
            guard FileManager.default.isReadableFile(atPath: part), (size ?? 0) > 0 else {
                throw .modelMissing(directory: base, missingPath: part)
            }
        }
    }

    /// A short name stored with each transcript, so a transcript can be told from one made
    /// with another model.
    public var name: String { "pocketsphinx:" + directory }
}
