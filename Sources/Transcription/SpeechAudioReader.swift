import SoundFiles
import Vocabulary

/// A sound file as the recogniser hears it: any format, rate and channel count libsndfile reads,
/// delivered block by block as 16 kHz mono 16-bit samples (the channels averaged, the rate
/// converted by libsamplerate).
///
/// Read with a meeting's `ChannelRoles`, each side is delivered too (`sides`: the mono mix of
/// the microphone's channels and of the desktop's, converted together as one two-channel
/// stream), and the mix is the average of the two sides.
public final class SpeechAudioReader {
    /// One block of a meeting's sides, as many samples as the block's mix.
    public struct Sides: Sendable, Equatable {
        public var microphone: [Int16] = []
        public var desktop: [Int16] = []
    }

    /// The file as it is on disk.
    public let info: SoundFileInfo
    /// Frames of the file read so far (at its own rate).
    public private(set) var framesRead: Int64 = 0
    /// Frames of the file read per block.
    static let blockFrames = 8192
    /// The roles the sides are read by; `nil` when the file is read as one mix.
    public let channelRoles: ChannelRoles?
    /// The sides of the block `nextBlock()` returned last, when read with roles.
    public private(set) var sides: Sides?

    private let reader: SoundFileReader
    private let resampler: Resampler?
    private var block: [Float]
    private var mono: [Float]
    private var resampled: [Float] = []
    private var microphone: [Float] = []
    private var desktop: [Float] = []
    private var finished = false

    /// - Parameter channelRoles: a meeting's, to deliver its sides; ignored for a file with fewer
    ///   channels than the roles name.
    /// - Throws: `.sound` when the file cannot be opened, `.noAudio` when it holds no frames,
    ///   `.resampling` for a rate libsamplerate cannot convert.
    public init(path: String, channelRoles: ChannelRoles? = nil) throws(TranscriptionError) {
        do {
            reader = try SoundFileReader(path: path)
        } catch {
            throw .sound(error)
        }
        info = reader.info
        guard info.frames > 0, info.sampleRate > 0, info.channels > 0 else {
            reader.close()
            throw .noAudio(path: path)
        }
        let fileChannels = info.channels
        let roles = channelRoles.flatMap { $0.channelCount <= fileChannels ? $0 : nil }
        self.channelRoles = roles
        if info.sampleRate == SpeechRecognizer.sampleRate {
            resampler = nil
        } else {
            do {
                resampler = try Resampler(
                    inputRate: info.sampleRate, outputRate: SpeechRecognizer.sampleRate,
                    channels: roles == nil ? 1 : 2)
            } catch {
                reader.close()
                throw .resampling(error)
            }
        }
        block = [Float](repeating: 0, count: Self.blockFrames * info.channels)
        mono = [Float](repeating: 0, count: Self.blockFrames * (roles == nil ? 1 : 2))
        if roles != nil {
            microphone = [Float](repeating: 0, count: Self.blockFrames)
            desktop = microphone
        }
    }

    deinit {
        reader.close()
    }

    /// The fraction of the file read (0…1).
    public var fractionRead: Double {
        min(1, Double(framesRead) / Double(max(info.frames, 1)))
    }

    /// The next block of 16 kHz mono samples (possibly empty while the converter fills), or `nil`
    /// after the end of the file.
    public func nextBlock() throws(TranscriptionError) -> [Int16]? {
        guard !finished else { return nil }
        let reader = self.reader
        let outcome = block.withUnsafeMutableBytes { bytes -> Result<Int, SoundFileError> in
            guard let base = bytes.baseAddress else { return .success(0) }
            return Result { () throws(SoundFileError) in try reader.read(into: base, frames: Self.blockFrames, as: .float32) }
        }
        let count: Int
        switch outcome {
        case .success(let frames): count = frames
        case .failure(let error): throw .sound(error)
        }
        framesRead += Int64(count)
        // `mono` holds one channel, or a meeting's two sides interleaved (microphone, desktop).
        let streams: Int
        if let channelRoles {
            SpeakerChoice.splitSides(
                block, frames: count, channels: info.channels, roles: channelRoles, microphone: &microphone,
                desktop: &desktop)
            for frame in 0..<count {
                mono[2 * frame] = microphone[frame]
                mono[2 * frame + 1] = desktop[frame]
            }
            streams = 2
        } else {
            Self.downmix(block, frames: count, channels: info.channels, into: &mono)
            streams = 1
        }
        let atEnd = count == 0
        if atEnd { finished = true }
        resampled.removeAll(keepingCapacity: true)
        if let resampler {
            var output = resampled
            let converted = mono.withUnsafeBufferPointer { samples -> Result<Void, ResamplingError> in
                Result { () throws(ResamplingError) in
                    try resampler.process(
                        UnsafeBufferPointer(rebasing: samples[0..<(count * streams)]), endOfInput: atEnd, into: &output)
                }
            }
            resampled = output
            if case .failure(let error) = converted { throw .resampling(error) }
        } else {
            resampled.append(contentsOf: mono[0..<(count * streams)])
        }
        guard streams == 2 else { return Resampler.int16Samples(resampled) }
        return splitConverted()
    }

    /// The converted two-channel sides into `sides`, and their average, the mix, returned.
    private func splitConverted() -> [Int16] {
        let frames = resampled.count / 2
        var microphone = [Float](repeating: 0, count: frames)
        var desktop = microphone
        var mix = microphone
        for frame in 0..<frames {
            microphone[frame] = resampled[2 * frame]
            desktop[frame] = resampled[2 * frame + 1]
            mix[frame] = (microphone[frame] + desktop[frame]) * 0.5
        }
        sides = Sides(microphone: Resampler.int16Samples(microphone), desktop: Resampler.int16Samples(desktop))
        return Resampler.int16Samples(mix)
    }

    /// The average of the channels of `frames` interleaved frames.
    static func downmix(_ block: [Float], frames: Int, channels: Int, into mono: inout [Float]) {
        if channels == 1 {
            for index in 0..<frames { mono[index] = block[index] }
            return
        }
        let scale = 1 / Float(channels)
        for frame in 0..<frames {
            var sum: Float = 0
            let base = frame * channels
            for channel in 0..<channels { sum += block[base + channel] }
            mono[frame] = sum * scale
        }
    }
}
