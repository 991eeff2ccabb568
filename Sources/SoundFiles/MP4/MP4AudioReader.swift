import CFFmpeg
import CFFmpegLoader
import Foundation

/// Reads the AAC audio of an MP4 (`.m4a`) file through FFmpeg: what we record with
/// `--format m4a`, and what phones' voice-memo apps make.
///
/// The length is the track's as its edit list states it (the encoder's priming at the start
/// and the padding of the last AAC frame are not audio), and `read` delivers exactly that
/// many frames: each decoded frame is placed by its timestamp, and what falls before the
/// position asked for (priming, or the frames decoded before a seek's target so the decoder
/// has warmed up) or after the end is dropped.
///
/// Not thread-safe: `SoundFileReader` serialises the calls.
final class MP4AudioReader {
    let path: String
    private(set) var info: SoundFileInfo
    let metadata: SoundFileMetadata

    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let streamIndex: Int32
    private let timeBase: AVRational
    /// Decoded interleaved frames not yet delivered, from `pendingStart` on.
    private var pending: [Float] = []
    private var pendingStart = 0
    /// The frame the next `read` delivers first.
    private var position: Int64 = 0
    /// Where the next decoded frame starts when it carries no timestamp.
    private var decodedEnd: Int64 = 0
    private var isDraining = false
    private var isAtEnd = false

    /// Frames decoded before a seek's target, so the AAC decoder's overlap is filled again.
    private static let seekPreroll: Int64 = 4096

    /// Opens `path`, which must be an MP4 file holding AAC audio.
    ///
    /// - Throws: `SoundFileError`: `.corrupt` for a truncated or damaged file (no `moov` atom),
    ///   `.unsupported` for another container or codec behind the `.m4a` name.
    init(path: String) throws(SoundFileError) {
        self.path = path
        try Self.checkStartsLikeMP4(path)
        if let failure = FFmpegLibraries.loadFailure() {
            throw SoundFileError(kind: .unsupported, path: path, detail: "M4A files need FFmpeg. " + failure)
        }
        vm_http_status_reset()
        var context: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&context, "file:" + path, nil, nil)
        guard opened >= 0, let context else {
            throw Self.openFailure(opened, path: path)
        }
        formatContext = context
        let container = String(cString: context.pointee.iformat.pointee.name)
        guard container.split(separator: ",").contains("mp4") else {
            Self.close(&formatContext)
            throw SoundFileError(
                kind: .unsupported, path: path, detail: "it is \(container) data, not an MP4 (M4A) file")
        }
        let found = avformat_find_stream_info(context, nil)
        var decoder: UnsafePointer<AVCodec>?
        let index = found < 0 ? found : av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let stream = context.pointee.streams[Int(index)] else {
            Self.close(&formatContext)
            throw SoundFileError(kind: .unsupported, path: path, detail: "the MP4 file holds no audio")
        }
        let codecID = stream.pointee.codecpar.pointee.codec_id
        guard codecID == AV_CODEC_ID_AAC, let decoder else {
            let name = String(cString: avcodec_get_name(codecID))
            Self.close(&formatContext)
            throw SoundFileError(
                kind: .unsupported, path: path, detail: "its audio is \(name), not AAC (M4A memos are AAC)")
        }
        streamIndex = index
        timeBase = stream.pointee.time_base
        guard let codec = avcodec_alloc_context3(decoder),
            avcodec_parameters_to_context(codec, stream.pointee.codecpar) >= 0,
            avcodec_open2(codec, decoder, nil) >= 0
        else {
            Self.close(&formatContext)
            throw SoundFileError(kind: .corrupt, path: path, detail: "FFmpeg cannot open its AAC decoder")
        }
        codecContext = codec
        let rate = Int(codec.pointee.sample_rate)
        let channels = Int(codec.pointee.ch_layout.nb_channels)
        guard rate > 0, RecordingSettings.channelRange.contains(channels) else {
            avcodec_free_context(&codecContext)
            Self.close(&formatContext)
            throw SoundFileError(kind: .corrupt, path: path, detail: "its AAC audio has \(channels) channels at \(rate) Hz")
        }
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        metadata = Self.metadata(of: context)

        var frames: Int64 = -1
        let duration = stream.pointee.duration
        if duration != vm_nopts_value(), duration > 0 {
            frames = av_rescale_q(duration, timeBase, AVRational(num: 1, den: Int32(rate)))
        } else if context.pointee.duration > 0 {
            frames = av_rescale(context.pointee.duration, Int64(rate), Int64(AV_TIME_BASE))
        }
        info = SoundFileInfo(
            frames: frames, sampleRate: rate, channels: channels, format: .m4a, encoding: .aac,
            formatDescription: "MP4 (M4A), AAC")
        if frames < 0 {
            // No length in the container: the frames that decode are the length.
            var counted: Int64 = 0
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: 4096 * channels * 4, alignment: 16)
            defer { scratch.deallocate() }
            while true {
                let read = try self.read(into: scratch, frames: 4096, as: .float32)
                if read == 0 { break }
                counted += Int64(read)
            }
            var known = info
            known.frames = counted
            info = known
            try seek(toFrame: 0)
        }
    }

    deinit {
        close()
    }

    func close() {
        av_packet_free(&packet)
        av_frame_free(&frame)
        if codecContext != nil { avcodec_free_context(&codecContext) }
        Self.close(&formatContext)
    }

    /// Reads up to `frames` frames into `buffer` as `sampleFormat`; 0 at the end.
    func read(into buffer: UnsafeMutableRawPointer, frames: Int, as sampleFormat: SampleFormat) throws(SoundFileError) -> Int {
        let channels = info.channels
        var delivered = 0
        while delivered < frames {
            if info.frames >= 0, position >= info.frames { break }
            let available = (pending.count - pendingStart) / channels
            if available == 0 {
                if isAtEnd { break }
                try decodeNext()
                continue
            }
            var count = min(available, frames - delivered)
            if info.frames >= 0 { count = Int(min(Int64(count), info.frames - position)) }
            Self.convert(pending, from: pendingStart, samples: count * channels, into: buffer,
                at: delivered * channels, as: sampleFormat)
            pendingStart += count * channels
            delivered += count
            position += Int64(count)
        }
        return delivered
    }

    /// Moves the read position to `frame` (0 is the start).
    func seek(toFrame target: Int64) throws(SoundFileError) {
        guard let formatContext, let codecContext, target >= 0 else {
            throw SoundFileError(kind: .read, path: path, detail: "cannot seek to frame \(target)")
        }
        let rate = AVRational(num: 1, den: Int32(info.sampleRate))
        // Before the start (the priming packet included) when the target is near it.
        let timestamp = av_rescale_q(target - Self.seekPreroll, rate, timeBase)
        let sought = av_seek_frame(formatContext, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        guard sought >= 0 else {
            throw SoundFileError(kind: .read, path: path,
                detail: "cannot seek to frame \(target): \(MP4AudioWriter.explained(sought))")
        }
        avcodec_flush_buffers(codecContext)
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        position = target
        decodedEnd = 0
        isDraining = false
        isAtEnd = false
    }

    // MARK: Private

    /// Decodes the next frame into `pending`, keeping only what lies at or after `position`.
    private func decodeNext() throws(SoundFileError) {
        guard let formatContext, let codecContext, let packet, let frame else {
            throw SoundFileError(kind: .read, path: path, detail: "the reader is closed")
        }
        while true {
            let received = avcodec_receive_frame(codecContext, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                take(frame)
                return
            }
            let error = FFmpegError(rawValue: received)
            if error == .endOfFile {
                isAtEnd = true
                return
            }
            guard error == .tryAgain else {
                throw SoundFileError(kind: .corrupt, path: path, detail: "decoding its AAC failed: \(error)")
            }
            if isDraining {
                isAtEnd = true
                return
            }
            let read = av_read_frame(formatContext, packet)
            if read < 0 {
                guard FFmpegError(rawValue: read) == .endOfFile else {
                    throw SoundFileError(kind: .read, path: path, detail: MP4AudioWriter.explained(read),
                        osError: MP4AudioWriter.osError(read))
                }
                isDraining = true
                avcodec_send_packet(codecContext, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codecContext, packet)
            if sent < 0, FFmpegError(rawValue: sent) != .invalidData {
                throw SoundFileError(kind: .corrupt, path: path, detail: "decoding its AAC failed: \(FFmpegError(rawValue: sent))")
            }
        }
    }

    /// Interleaves the part of `frame` at or after `position` into `pending`.
    private func take(_ frame: UnsafeMutablePointer<AVFrame>) {
        let channels = info.channels
        let count = Int(frame.pointee.nb_samples)
        var start = decodedEnd
        let pts = frame.pointee.best_effort_timestamp
        if pts != vm_nopts_value() {
            start = av_rescale_q(pts, timeBase, AVRational(num: 1, den: Int32(info.sampleRate)))
        }
        decodedEnd = start + Int64(count)
        let skip = Int(max(0, min(Int64(count), position - start)))
        if pendingStart > 0 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        guard skip < count, Int(frame.pointee.ch_layout.nb_channels) == channels,
            let planes = frame.pointee.extended_data
        else { return }
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let base = pending.count
        pending.append(contentsOf: repeatElement(0, count: (count - skip) * channels))
        pending.withUnsafeMutableBufferPointer { output in
            for channel in 0..<channels {
                for index in skip..<count {
                    let sample: Float
                    if format == AV_SAMPLE_FMT_FLTP, let plane = planes[channel] {
                        sample = UnsafeRawPointer(plane).load(fromByteOffset: index * 4, as: Float.self)
                    } else if format == AV_SAMPLE_FMT_FLT, let plane = planes[0] {
                        sample = UnsafeRawPointer(plane).load(fromByteOffset: (index * channels + channel) * 4, as: Float.self)
                    } else {
                        sample = 0
                    }
                    output[base + (index - skip) * channels + channel] = sample
                }
            }
        }
    }

    /// Float samples into `buffer` as `sampleFormat`, clipped for the integer formats.
    private static func convert(
        _ samples: [Float], from start: Int, samples count: Int, into buffer: UnsafeMutableRawPointer, at offset: Int,
        as sampleFormat: SampleFormat
    ) {
        samples.withUnsafeBufferPointer { input in
            for index in 0..<count {
                let value = input[start + index]
                switch sampleFormat {
                case .float32:
                    buffer.storeBytes(of: value, toByteOffset: (offset + index) * 4, as: Float.self)
                case .int16:
                    let scaled = (Double(value) * 32767).rounded()
                    buffer.storeBytes(of: Int16(max(-32768, min(32767, scaled))), toByteOffset: (offset + index) * 2, as: Int16.self)
                case .int32:
                    let scaled = (Double(value) * 2_147_483_647).rounded()
                    buffer.storeBytes(
                        of: Int32(max(-2_147_483_648, min(2_147_483_647, scaled))), toByteOffset: (offset + index) * 4, as: Int32.self)
                }
            }
        }
    }

    private static func metadata(of context: UnsafeMutablePointer<AVFormatContext>) -> SoundFileMetadata {
        func tag(_ key: String) -> String? {
            guard let entry = av_dict_get(context.pointee.metadata, key, nil, 0), let value = entry.pointee.value else {
                return nil
            }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        return SoundFileMetadata(
            title: tag("title"), comment: tag("comment"), date: tag("date") ?? tag("creation_time"),
            software: tag("encoder"))
    }

    /// Refuses a file whose first box is not one an MP4 file starts with (`ftyp`, or `moov`,
    /// `mdat`, `free`, `wide`, `skip` in old QuickTime files): FFmpeg, told `.m4a`, would try
    /// its MP4 demuxer on anything and report only that no `moov` atom was found.
    private static func checkStartsLikeMP4(_ path: String) throws(SoundFileError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SoundFileError(kind: .cannotOpen, path: path, osError: errno)
        }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        try? handle.close()
        let type = head.count == 8 ? String(decoding: head.suffix(4), as: UTF8.self) : ""
        guard ["ftyp", "moov", "mdat", "free", "wide", "skip"].contains(type) else {
            throw SoundFileError(
                kind: .unsupported, path: path, detail: "it is not an MP4 (M4A) file: it does not begin with an MP4 box (ftyp)")
        }
    }

    private static func close(_ context: inout UnsafeMutablePointer<AVFormatContext>?) {
        if context != nil { avformat_close_input(&context) }
    }

    /// Why FFmpeg could not open the file, in words about the file.
    private static func openFailure(_ status: Int32, path: String) -> SoundFileError {
        let logged = String(cString: vm_last_error_message())
        if let osError = MP4AudioWriter.osError(status), osError != EIO, FFmpegError(rawValue: status) != .invalidData {
            return SoundFileError(kind: .cannotOpen, path: path, osError: osError)
        }
        if logged.contains("moov atom not found") {
            return SoundFileError(
                kind: .corrupt, path: path,
                detail: "the MP4 file is truncated or damaged: it has no index (moov atom), which is written last")
        }
        return SoundFileError(
            kind: .unsupported, path: path,
            detail: "it is not an MP4 (M4A) file FFmpeg can read (\(MP4AudioWriter.explained(status)))")
    }
}
