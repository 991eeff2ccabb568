import Foundation

/// What an `.intermediate` recording was meant to become, saved next to its W64 intermediate
/// (`.<name>.partial.json`) so that recovery after a crash encodes it with the right settings and tags.
struct IntermediateRecipe: Codable, Equatable {
    var format: String
    var encoding: String
    var quality: String
    var metadata: SoundFileMetadata

    init(settings: RecordingSettings, metadata: SoundFileMetadata) {
        format = settings.format.rawValue
        encoding = settings.encoding.rawValue
        quality = settings.quality.rawValue
        self.metadata = metadata
    }

    /// The settings to encode with; rate and channels come from the intermediate itself.
    func settings(sampleRate: Int, channels: Int) -> RecordingSettings? {
        guard let format = FileFormat(rawValue: format), let encoding = Encoding(rawValue: encoding) else {
            return nil
        }
        return RecordingSettings(
            format: format, encoding: encoding, sampleRate: sampleRate, channels: channels,
            quality: Quality(rawValue: quality) ?? .high)
    }

    /// Where the recipe for the recording at `path` lives.
    static func path(for path: String) -> String {
        TemporarySibling.recipe.path(beside: path)
    }

    func save(for target: String) throws(SoundFileError) {
        let location = Self.path(for: target)
        do {
            let data = try JSONEncoder().encode(self)
            try data.write(to: URL(fileURLWithPath: location), options: .atomic)
        } catch {
            throw SoundFileError.foundation(error, kind: .cannotOpen, path: location, doing: "cannot save the recording recipe")
        }
    }

    static func load(for target: String) -> IntermediateRecipe? {
        guard let data = FileManager.default.contents(atPath: path(for: target)) else { return nil }
        return try? JSONDecoder().decode(IntermediateRecipe.self, from: data)
    }

    static func remove(for target: String) {
        try? FileManager.default.removeItem(atPath: path(for: target))
    }
}
