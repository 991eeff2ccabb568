import Vocabulary
import Metering
import SoundFiles

/// A sound file played in as the microphone: the `file:PATH` source.
///
/// Anything libsndfile reads works. It delivers the file's own rate and channel
/// count, paced to real time unless `paced` is false, and reports the end of the
/// stream when the file is used up.
public final class FileSource: CaptureSource {
    public let format: StreamFormat
    public let name: String
    private let reader: SoundFileReader
    private var pacer: Pacer?
    private var framesDelivered = 0
    private let periodFrames: Int

    /// - Throws: `CaptureError.file` for a file libsndfile cannot read, or one with more
    ///   channels than the meters take (`LevelMeter.maximumChannelCount`).
    public init(path: String, sampleFormat: SampleFormat = .float32, paced: Bool = true) throws(CaptureError) {
        do {
            reader = try SoundFileReader(path: path)
        } catch {
            throw CaptureError(.file, error.description)
        }
        let channels = reader.info.channels
        guard (1...LevelMeter.maximumChannelCount).contains(channels), reader.info.sampleRate > 0 else {
            reader.close()
            throw CaptureError(
                .file,
                "\(path) has \(channels) channels at \(reader.info.sampleRate) Hz; a file source can have "
                    + "1 to \(LevelMeter.maximumChannelCount) channels (the meter shows at most that many)")
        }
        format = StreamFormat(
            sampleRate: reader.info.sampleRate, channels: reader.info.channels, sampleFormat: sampleFormat)
        name = InputName.file(path: path).description
        pacer = paced ? Pacer(sampleRate: format.sampleRate) : nil
        periodFrames = max(1, format.sampleRate / 50)
    }

    public func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws(CaptureError) -> CaptureRead {
        let count = min(frames, periodFrames)
        pacer?.wait(untilFrame: framesDelivered + count)
        let got: Int
        do {
            got = try reader.read(into: buffer, frames: count, as: format.sampleFormat)
        } catch {
            throw CaptureError(.file, error.description)
        }
        framesDelivered += got
        return CaptureRead(frames: got, endOfStream: got < count)
    }

    public func close() {
        reader.close()
    }

    public var replacedSamples: ReplacedSamples { reader.replacedSamples }
}
