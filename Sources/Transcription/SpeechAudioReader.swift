import SoundFiles

/// A sound file as the recogniser hears it: any format, rate and channel count libsndfile reads,
/// delivered block by block as 16 kHz mono 16-bit samples (the channels averaged, the rate
/// converted by libsamplerate).
public final class SpeechAudioReader {
    /// The file as it is on disk.
    public let info: SoundFileInfo
    /// Frames of the file read so far (at its own rate).
    public private(set) var framesRead: Int64 = 0
    /// Frames of the file read per block.
    static let blockFrames = 8192

    private let reader: SoundFileReader
    private let resampler: Resampler?
    private var block: [Float]
    private var mono: [Float]
    private var resampled: [Float] = []
    private var finished = false

    /// - Throws: `.sound` when the file cannot be opened, `.noAudio` when it holds no frames,
    ///   `.resampling` for a rate libsamplerate cannot convert.
    public init(path: String) throws(TranscriptionError) {
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
        if info.sampleRate == SpeechRecognizer.sampleRate {
            resampler = nil
        } else {
            do {
                resampler = try Resampler(inputRate: info.sampleRate, outputRate: SpeechRecognizer.sampleRate)
            } catch {
                reader.close()
                throw .resampling(error)
            }
        }
        block = [Float](repeating: 0, count: Self.blockFrames * info.channels)
        mono = [Float](repeating: 0, count: Self.blockFrames)
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
        Self.downmix(block, frames: count, channels: info.channels, into: &mono)
        let atEnd = count == 0
        if atEnd { finished = true }
        resampled.removeAll(keepingCapacity: true)
        if let resampler {
            var output = resampled
            let converted = mono.withUnsafeBufferPointer { samples -> Result<Void, ResamplingError> in
                Result { () throws(ResamplingError) in
                    try resampler.process(UnsafeBufferPointer(rebasing: samples[0..<count]), endOfInput: atEnd, into: &output)
                }
            }
            resampled = output
            if case .failure(let error) = converted { throw .resampling(error) }
        } else {
            resampled.append(contentsOf: mono[0..<count])
        }
        return Resampler.int16Samples(resampled)
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
