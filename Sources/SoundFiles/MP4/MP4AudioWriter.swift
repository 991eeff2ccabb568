import CFFmpeg
import CFFmpegLoader
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes AAC-LC into an MP4 (`.m4a`) file through FFmpeg's native AAC encoder and its `ipod`
/// muxer (what `ffmpeg` uses for `.m4a`), with the tags in the `ilst` atoms (`©nam`, `©cmt`,
/// `©day`, `©too`).
///
/// An MP4 file is only readable once its `moov` atom (the index of every packet) is written,
/// at the end; so everything goes to a hidden temporary file beside the target
/// (`.NAME.m4a.encoding.m4a`), which `close()` flushes (fsync) and renames over the target, and
/// whose folder it then flushes. Until then the target does not exist: a reader sees no file or
/// the complete one, never half of one. A process killed meanwhile leaves the temporary file,
/// which the next encode of the same target truncates.
///
/// The movie's time scale is the sample rate (`movie_timescale`): its edit list, which says
/// where the audio starts after the encoder's priming (1024 frames) and where it ends inside
/// the last AAC frame, then counts whole samples, so the length read back is exactly the length
/// written (with FFmpeg's default of 1000 it is rounded to the millisecond).
///
/// Not thread-safe: its owner (`IntermediateEncoding`) serialises the calls.
final class MP4AudioWriter {
    let path: String
    let temporaryPath: String
    let sampleRate: Int
    let channels: Int

    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// Samples per AAC frame (1024).
    private let frameSize: Int
    /// Frames gathered in `frame` so far.
    private var gathered = 0
    /// Frames handed to the encoder so far (the next frame's pts).
    private var sent: Int64 = 0

    /// The bit rate for each channel at each quality (AAC-LC: 64 kbit/s a channel is the usual
    /// "high", what a phone's voice memos use for mono).
    static func bitRatePerChannel(for quality: Quality) -> Int {
        switch quality {
        case .min: 24_000
        case .low: 32_000
        case .medium: 48_000
        case .high: 64_000
        case .max: 96_000
        }
    }

    /// The hidden file written before `close()` renames it to `path`.
    static func temporaryPath(for path: String) -> String {
        TemporarySibling.encoding.path(beside: path)
    }

    /// Creates the temporary file and writes the file's header.
    ///
    /// - Throws: `SoundFileError`: `.cannotOpen` when the file cannot be created (with its
    ///   errno), `.unsupported` when the encoder refuses the rate or channels.
    init(path: String, settings: RecordingSettings, metadata: SoundFileMetadata) throws(SoundFileError) {
        self.path = path
        temporaryPath = Self.temporaryPath(for: path)
        sampleRate = settings.sampleRate
        channels = settings.channels
        if let failure = FFmpegLibraries.loadFailure() {
            throw SoundFileError(kind: .unsupported, path: path, detail: "M4A files need FFmpeg. " + failure)
        }
        vm_http_status_reset()

        var context: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&context, nil, "ipod", temporaryPath) >= 0, let context,
            let encoder = avcodec_find_encoder(AV_CODEC_ID_AAC)
        else {
            throw SoundFileError(kind: .unsupported, path: path, detail: "FFmpeg has no AAC encoder or MP4 muxer")
        }
        formatContext = context
        guard let stream = avformat_new_stream(context, nil), let codec = avcodec_alloc_context3(encoder) else {
            Self.release(context: &formatContext, codec: &codecContext)
            throw SoundFileError(kind: .unsupported, path: path, detail: "out of memory")
        }
        self.stream = stream
        codecContext = codec
        codec.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        codec.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&codec.pointee.ch_layout, Int32(channels))
        codec.pointee.bit_rate = Int64(Self.bitRatePerChannel(for: settings.quality) * channels)
        codec.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        var opened = avcodec_open2(codec, encoder, nil)
        if opened >= 0 { opened = avcodec_parameters_from_context(stream.pointee.codecpar, codec) }
        guard opened >= 0 else {
            Self.release(context: &formatContext, codec: &codecContext)
            throw SoundFileError(
                kind: .unsupported, path: path,
                detail: "the AAC encoder refuses \(channels) channels at \(sampleRate) Hz: \(Self.explained(opened))")
        }
        stream.pointee.time_base = codec.pointee.time_base
        frameSize = max(1, Int(codec.pointee.frame_size))

        for (key, value) in Self.tags(metadata) {
            av_dict_set(&context.pointee.metadata, key, value, 0)
        }

        // A file left by a process killed while encoding the same target is replaced.
        unlink(temporaryPath)
        var io: UnsafeMutablePointer<AVIOContext>?
        let created = avio_open(&io, "file:" + temporaryPath, AVIO_FLAG_WRITE)
        guard created >= 0, let io else {
            Self.release(context: &formatContext, codec: &codecContext)
            throw SoundFileError(kind: .cannotOpen, path: path, detail: "cannot create \(temporaryPath)",
                osError: Self.osError(created))
        }
        context.pointee.pb = io
        var options: OpaquePointer?
        av_dict_set(&options, "movie_timescale", String(sampleRate), 0)
        let header = avformat_write_header(context, &options)
        av_dict_free(&options)
        guard header >= 0 else {
            abandonFile()
            throw SoundFileError(
                kind: SoundFileError.writeKind(forOSError: Self.osError(header)), path: path,
                detail: "writing the MP4 header failed: \(Self.explained(header))", osError: Self.osError(header))
        }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame else {
            abandonFile()
            throw SoundFileError(kind: .write, path: path, detail: "out of memory")
        }
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_copy(&frame.pointee.ch_layout, &codec.pointee.ch_layout)
        guard av_frame_get_buffer(frame, 0) >= 0 else {
            abandonFile()
            throw SoundFileError(kind: .write, path: path, detail: "out of memory")
        }
    }

    deinit {
        abandonFile()
    }

    /// Encodes `frames` interleaved frames of `sampleFormat` from `buffer`.
    ///
    /// - Throws: `SoundFileError` when encoding or writing fails: `.diskFull` (ENOSPC),
    ///   `.fileTooLarge` (EFBIG) or `.write`, naming the temporary file.
    func write(_ buffer: UnsafeRawPointer, frames: Int, sampleFormat: SampleFormat) throws(SoundFileError) {
        guard let frame else { throw SoundFileError(kind: .write, path: path, detail: "the writer is closed") }
        var done = 0
        while done < frames {
            if gathered == 0, av_frame_make_writable(frame) < 0 {
                throw SoundFileError(kind: .write, path: path, detail: "out of memory")
            }
            let count = min(frames - done, frameSize - gathered)
            deinterleave(buffer, from: done, frames: count, as: sampleFormat, into: frame)
            gathered += count
            done += count
            if gathered == frameSize { try sendGathered() }
        }
    }

    /// Encodes what is gathered, flushes the encoder, writes the `moov` atom, flushes the file
    /// to disk and renames it over `path`. Idempotent.
    ///
    /// - Throws: `SoundFileError` when any step fails; the target is then not written (the
    ///   temporary file is removed).
    func close() throws(SoundFileError) {
        guard let context = formatContext, let codec = codecContext else { return }
        do throws(SoundFileError) {
            if gathered > 0 { try sendGathered() }
            try drain(sending: avcodec_send_frame(codec, nil))
            let trailer = av_write_trailer(context)
            try check(trailer, doing: "writing the MP4 index (moov)")
            var io = context.pointee.pb
            context.pointee.pb = nil
            try check(avio_closep(&io), doing: "closing the file")
            try Self.flushToDisk(temporaryPath, as: path)
            guard rename(temporaryPath, path) == 0 else {
                throw SoundFileError(kind: .write, path: path, detail: "cannot rename \(temporaryPath) to it", osError: errno)
            }
            Self.flushFolder(of: path)
        } catch {
            abandonFile()
            throw error
        }
        Self.release(context: &formatContext, codec: &codecContext)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    // MARK: Private

    private func sendGathered() throws(SoundFileError) {
        guard let frame, let codec = codecContext else { return }
        frame.pointee.nb_samples = Int32(gathered)
        frame.pointee.pts = sent
        sent += Int64(gathered)
        gathered = 0
        try drain(sending: avcodec_send_frame(codec, frame))
        frame.pointee.nb_samples = Int32(frameSize)
    }

    /// Checks what `avcodec_send_frame` answered, then writes every packet the encoder has ready.
    private func drain(sending status: Int32) throws(SoundFileError) {
        guard let codec = codecContext, let packet, let context = formatContext, let stream else { return }
        if status < 0, FFmpegError(rawValue: status) != .endOfFile {
            try check(status, doing: "encoding AAC")
        }
        while true {
            let received = avcodec_receive_packet(codec, packet)
            let error = FFmpegError(rawValue: received)
            if error == .tryAgain || error == .endOfFile { return }
            try check(received, doing: "encoding AAC")
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(context, packet)
            av_packet_unref(packet)
            try check(written, doing: "writing")
        }
    }

    private func check(_ status: Int32, doing what: String) throws(SoundFileError) {
        guard status < 0 else { return }
        let osError = Self.osError(status)
        throw SoundFileError(
            kind: SoundFileError.writeKind(forOSError: osError), path: temporaryPath,
            detail: "\(what) failed" + (osError == nil ? ": \(Self.explained(status))" : ""), osError: osError)
    }

    /// Copies frames into the planar float frame the encoder takes, from sample `start` on.
    private func deinterleave(
        _ buffer: UnsafeRawPointer, from start: Int, frames: Int, as sampleFormat: SampleFormat,
        into frame: UnsafeMutablePointer<AVFrame>
    ) {
        guard let planes = frame.pointee.extended_data else { return }
        for channel in 0..<channels {
            guard let plane = planes[channel] else { continue }
            let output = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self) + gathered
            for index in 0..<frames {
                let sample = (start + index) * channels + channel
                output[index] =
                    switch sampleFormat {
                    case .float32: UsableSamples.usable(buffer.load(fromByteOffset: sample * 4, as: Float.self))
                    case .int16: Float(buffer.load(fromByteOffset: sample * 2, as: Int16.self)) / 32768
                    case .int32: Float(Double(buffer.load(fromByteOffset: sample * 4, as: Int32.self)) / 2_147_483_648)
                    }
            }
        }
    }

    /// Closes and removes the temporary file without writing the target.
    private func abandonFile() {
        if let context = formatContext, context.pointee.pb != nil {
            var io = context.pointee.pb
            context.pointee.pb = nil
            avio_closep(&io)
            unlink(temporaryPath)
        }
        Self.release(context: &formatContext, codec: &codecContext)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    private static func release(
        context: inout UnsafeMutablePointer<AVFormatContext>?, codec: inout UnsafeMutablePointer<AVCodecContext>?
    ) {
        if codec != nil { avcodec_free_context(&codec) }
        if let owned = context {
            avformat_free_context(owned)
            context = nil
        }
    }

    /// Our tags as FFmpeg's metadata keys (the `ipod` muxer writes `title` as `©nam`, `comment`
    /// as `©cmt`, `date` as `©day`, `encoding_tool` as `©too`, which the demuxer reads back as
    /// `encoder`; `creation_time` goes into the movie header).
    private static func tags(_ metadata: SoundFileMetadata) -> [(String, String)] {
        var tags: [(String, String)] = []
        if let title = metadata.title, !title.isEmpty { tags.append(("title", title)) }
        if let comment = metadata.comment, !comment.isEmpty { tags.append(("comment", comment)) }
        if let date = metadata.date, !date.isEmpty {
            tags.append(("date", date))
            tags.append(("creation_time", date))
        }
        if let software = metadata.software, !software.isEmpty { tags.append(("encoding_tool", software)) }
        return tags
    }

    /// fsync of a file we just closed, through a descriptor of its own.
    private static func flushToDisk(_ file: String, as path: String) throws(SoundFileError) {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SoundFileError(kind: .write, path: path, detail: "cannot reopen \(file) to flush it", osError: errno)
        }
        defer { Glibc.close(descriptor) }
        guard fsync(descriptor) == 0 else {
            let code = errno
            throw SoundFileError(kind: SoundFileError.writeKind(forOSError: code), path: path,
                detail: "flushing \(file) to disk failed", osError: code)
        }
    }

    private static func flushFolder(of path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        Glibc.close(descriptor)
    }

    /// The errno inside an `AVERROR(errno)`, if `status` is one.
    static func osError(_ status: Int32) -> Int32? {
        status < 0 && -status < 4096 ? -status : nil
    }

    /// FFmpeg's text for `status`, with the last error it logged when that says more.
    static func explained(_ status: Int32) -> String {
        let logged = String(cString: vm_last_error_message())
        let text = FFmpegError(rawValue: status).description
        return logged.isEmpty || logged == text ? text : "\(text) (\(logged))"
    }
}
