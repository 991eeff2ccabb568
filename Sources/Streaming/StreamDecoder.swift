import CFFmpeg
import SoundFiles

/// One connection to a network stream, demuxed and decoded by FFmpeg into interleaved frames.
///
/// Every FFmpeg call for streams is in this file. `open` connects (`avio_open2`, following
/// redirects), refuses a reply that is not audio by its Content-Type, probes the container
/// (`avformat_open_input`, `avformat_find_stream_info`), opens the best audio stream's decoder
/// and a resampler (libswresample) that interleaves without changing the rate: integer PCM and
/// FLAC come out as they were sent (int16, or int32 above 16 bits), lossy codecs as float.
/// `decode()` then returns the next block until the stream ends.
///
/// Not thread-safe: one thread opens, decodes and closes; `interruption` may be used from any.
public final class StreamDecoder {
    public let url: String
    /// What `decode()` delivers.
    public let format: StreamFormat
    /// The codec's name ("mp3", "flac", "aac").
    public let codecName: String
    /// The server's `icy-name`, if it sent one.
    public let streamName: String?
    /// Whether the reply has no length (a live stream): its end is a drop, to reconnect.
    public let isLive: Bool
    /// The stream's length in seconds when the container tells (a file, not a live stream).
    public let duration: Double?

    private let interruption: StreamInterruption
    private let timeout: Double
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var resamplerInput: (format: Int32, rate: Int32, channels: Int32)?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let streamIndex: Int32
    private var isDraining = false
    private var lastMetadataPacket = ""
    /// The converted block `decode()` returns, grown as needed.
    private var output: UnsafeMutableRawPointer
    private var outputCapacityFrames = 0

    /// The latest ICY `StreamTitle`, and whether it changed at the last `decode()`.
    public private(set) var title: String?
    public private(set) var titleChanged = false

    /// Connects to `url` and prepares to decode its audio.
    ///
    /// - Throws: `StreamError`: the server's HTTP status, a redirect loop, a timeout, a refused
    ///   connection or TLS failure, a reply that is not audio, or audio nothing here decodes.
    ///   - target: the format to deliver instead of the stream's own (a recording's rate and
    ///     channels; resampled and remixed by libswresample); nil keeps the stream's.
    public init(
        url: String, options: StreamOptions, interruption: StreamInterruption, target: StreamFormat? = nil
    ) throws(StreamError) {
        guard let parsed = StreamURL(url) else { throw StreamError(.unsupportedURL, url: url) }
        self.url = url
        self.interruption = interruption
        self.timeout = options.timeout
        vm_install_log()
        vm_http_status_reset()

        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        av_dict_set(&dictionary, "icy", "1", 0)
        av_dict_set(&dictionary, "user_agent", "voicememo", 0)
        if parsed.isSecure {
            av_dict_set(&dictionary, "tls_verify", "1", 0)
            av_dict_set(
                &dictionary, "ca_file", options.certificateAuthorities ?? StreamOptions.systemCertificateAuthorities, 0)
        }
        var callback = interruption.callback
        var io: UnsafeMutablePointer<AVIOContext>?
        interruption.arm(seconds: options.timeout)
        let opened = avio_open2(&io, url, AVIO_FLAG_READ, &callback, &dictionary)
        guard opened >= 0, let io else {
            throw Self.openFailure(FFmpegError(rawValue: opened), url: url, interruption: interruption, timeout: options.timeout)
        }
        self.io = io
        output = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16)

        let contentType = Self.option(io, "mime_type") ?? ""
        let type = contentType.lowercased()
        if type.hasPrefix("text/") || type.hasPrefix("application/xhtml") || type.hasPrefix("application/json") {
            avio_closep(&self.io)
            output.deallocate()
            throw StreamError(.notAudio(contentType: contentType), url: url)
        }
        streamName = Self.option(io, "icy_metadata_headers").flatMap(Self.icyName(in:))
        isLive = avio_size(io) <= 0

        guard let context = avformat_alloc_context() else {
            avio_closep(&self.io)
            output.deallocate()
            throw StreamError(.decode("out of memory"), url: url)
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.interrupt_callback = callback
        // A live stream arrives in real time: probe what the first frames tell, not seconds of it.
        context.pointee.probesize = 32_768
        context.pointee.max_analyze_duration = 500_000
        var formatContext: UnsafeMutablePointer<AVFormatContext>? = context
        interruption.arm(seconds: options.timeout)
        let probed = avformat_open_input(&formatContext, url, nil, nil)
        guard probed >= 0, let formatContext else {
            // avformat_open_input frees the context on failure; the I/O is ours.
            avio_closep(&self.io)
            output.deallocate()
            throw Self.readFailure(FFmpegError(rawValue: probed), url: url, interruption: interruption, timeout: options.timeout, probing: true)
        }
        self.formatContext = formatContext
        interruption.arm(seconds: options.timeout)
        let found = avformat_find_stream_info(formatContext, nil)
        var decoder: UnsafePointer<AVCodec>?
        let index = found < 0 ? found : av_find_best_stream(formatContext, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = formatContext.pointee.streams[Int(index)] else {
            let error = FFmpegError(rawValue: index)
            let failure: StreamError = error == .decoderNotFound
                ? StreamError(.decode("no decoder for its audio"), url: url)
                : (found < 0
                    ? Self.readFailure(error, url: url, interruption: interruption, timeout: options.timeout, probing: true)
                    : StreamError(.notAudio(contentType: contentType.isEmpty ? "no audio stream" : contentType), url: url))
            Self.release(formatContext: formatContext, io: &self.io)
            self.formatContext = nil
            output.deallocate()
            throw failure
        }
        streamIndex = index
        guard let codecContext = avcodec_alloc_context3(decoder),
            avcodec_parameters_to_context(codecContext, stream.pointee.codecpar) >= 0,
            avcodec_open2(codecContext, decoder, nil) >= 0
        else {
            Self.release(formatContext: formatContext, io: &self.io)
            self.formatContext = nil
            output.deallocate()
            throw StreamError(.decode("cannot open the \(String(cString: decoder.pointee.name)) decoder"), url: url)
        }
        self.codecContext = codecContext
        // The codec's name ("mp3"), not the decoder's ("mp3float").
        codecName = String(cString: avcodec_get_name(decoder.pointee.id))
        let rate = Int(codecContext.pointee.sample_rate)
        let channels = Int(codecContext.pointee.ch_layout.nb_channels)
        guard rate > 0, (1...32).contains(channels) else {
            var owned: UnsafeMutablePointer<AVCodecContext>? = codecContext
            avcodec_free_context(&owned)
            self.codecContext = nil
            Self.release(formatContext: formatContext, io: &self.io)
            self.formatContext = nil
            output.deallocate()
            throw StreamError(.decode("its audio has \(channels) channels at \(rate) Hz; 1–32 channels can be played"), url: url)
        }
        format = target ?? StreamFormat(
            sampleRate: rate, channels: channels,
            sampleFormat: Self.sampleFormat(for: codecContext.pointee.sample_fmt, bits: codecContext.pointee.bits_per_raw_sample))
        let length = formatContext.pointee.duration
        duration = !isLive && length > 0 ? Double(length) / Double(AV_TIME_BASE) : nil
        packet = av_packet_alloc()
        frame = av_frame_alloc()
    }

    deinit {
        close()
    }

    /// Releases the connection and the decoder. Idempotent.
    public func close() {
        av_packet_free(&packet)
        av_frame_free(&frame)
        if codecContext != nil { avcodec_free_context(&codecContext) }
        if resampler != nil { swr_free(&resampler) }
        if let formatContext {
            Self.release(formatContext: formatContext, io: &io)
            self.formatContext = nil
        }
        if outputCapacityFrames >= 0 {
            output.deallocate()
            outputCapacityFrames = -1
        }
    }

    /// The next decoded block: interleaved frames in `format`, valid until the next call;
    /// 0 frames at the end of the stream.
    ///
    /// - Throws: `StreamError`: a timeout, a dropped connection (a known length not reached,
    ///   or a reset), or data that cannot be decoded.
    public func decode() throws(StreamError) -> (UnsafeRawPointer, frames: Int) {
        titleChanged = false
        guard let codecContext, let frame, let packet, let formatContext else { return (UnsafeRawPointer(output), 0) }
        while true {
            let received = avcodec_receive_frame(codecContext, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                let frames = try convert(frame)
                if frames > 0 { return (UnsafeRawPointer(output), frames) }
                continue
            }
            let error = FFmpegError(rawValue: received)
            if error == .endOfFile { return (UnsafeRawPointer(output), 0) }
            guard error == .tryAgain else {
                if isCutShort { throw StreamError(.dropped, url: url) }
                throw StreamError(.decode("the \(codecName) decoder failed: \(error)"), url: url)
            }
            if isDraining { return (UnsafeRawPointer(output), 0) }
            interruption.arm(seconds: timeout)
            let read = av_read_frame(formatContext, packet)
            if read < 0 {
                let readError = FFmpegError(rawValue: read)
                guard readError == .endOfFile else {
                    if isCutShort { throw StreamError(.dropped, url: url) }
                    throw Self.readFailure(readError, url: url, interruption: interruption, timeout: timeout, probing: false)
                }
                if let io, io.pointee.error < 0, FFmpegError(rawValue: io.pointee.error) != .endOfFile {
                    throw Self.readFailure(FFmpegError(rawValue: io.pointee.error), url: url, interruption: interruption, timeout: timeout, probing: false)
                }
                if isCutShort { throw StreamError(.dropped, url: url) }
                isDraining = true
                avcodec_send_packet(codecContext, nil)
                continue
            }
            checkMetadata()
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codecContext, packet)
            // A damaged packet in a live stream is skipped, as players do; others end it.
            if sent < 0, isCutShort { throw StreamError(.dropped, url: url) }
            if sent < 0, FFmpegError(rawValue: sent) != .invalidData {
                throw StreamError(.decode("the \(codecName) decoder failed: \(FFmpegError(rawValue: sent))"), url: url)
            }
        }
    }

    // MARK: Private

    /// Whether the connection ended before the length the server announced (Content-Length).
    private var isCutShort: Bool {
        guard let io, !isLive, io.pointee.eof_reached != 0 || io.pointee.error < 0 else { return false }
        let size = avio_size(io)
        return size > 0 && avio_tell(io) < size
    }

    /// Interleaves `frame` into `output` in `format`; the frame count.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(StreamError) -> Int {
        let input = (frame.pointee.format, frame.pointee.sample_rate, frame.pointee.ch_layout.nb_channels)
        if resampler == nil || resamplerInput.map({ $0 != input }) ?? true {
            if resampler != nil { swr_free(&resampler) }
            var inputLayout = AVChannelLayout()
            if av_channel_layout_copy(&inputLayout, &frame.pointee.ch_layout) < 0 || inputLayout.order == AV_CHANNEL_ORDER_UNSPEC {
                av_channel_layout_uninit(&inputLayout)
                av_channel_layout_default(&inputLayout, input.2)
            }
            // The same channels out as in (only the interleaving and the sample type change),
            // unless the caller asked for another count.
            var layout = AVChannelLayout()
            if Int(input.2) == format.channels {
                av_channel_layout_copy(&layout, &inputLayout)
            } else {
                av_channel_layout_default(&layout, Int32(format.channels))
            }
            defer {
                av_channel_layout_uninit(&layout)
                av_channel_layout_uninit(&inputLayout)
            }
            var context: OpaquePointer?
            let made = swr_alloc_set_opts2(
                &context, &layout, Self.interleaved(format.sampleFormat), Int32(format.sampleRate),
                &inputLayout, AVSampleFormat(rawValue: input.0), input.1, 0, nil)
            guard made >= 0, let context, swr_init(context) >= 0 else {
                swr_free(&context)
                throw StreamError(.decode("cannot convert its \(input.1) Hz audio"), url: url)
            }
            resampler = context
            resamplerInput = input
        }
        let capacity = Int(swr_get_out_samples(resampler, frame.pointee.nb_samples)) + 32
        if capacity > outputCapacityFrames {
            output.deallocate()
            output = UnsafeMutableRawPointer.allocate(byteCount: capacity * format.bytesPerFrame, alignment: 16)
            outputCapacityFrames = capacity
        }
        var planes: UnsafeMutablePointer<UInt8>? = output.assumingMemoryBound(to: UInt8.self)
        let converted = frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 32) { input in
            swr_convert(resampler, &planes, Int32(outputCapacityFrames), input, frame.pointee.nb_samples)
        }
        guard converted >= 0 else {
            throw StreamError(.decode("converting its audio failed: \(FFmpegError(rawValue: converted))"), url: url)
        }
        return Int(converted)
    }

    /// Reads the ICY metadata packet FFmpeg's http layer keeps, and the title in it.
    private func checkMetadata() {
        guard let io, let packet = Self.option(io, "icy_metadata_packet"), packet != lastMetadataPacket else { return }
        lastMetadataPacket = packet
        if let next = IcyMetadata.streamTitle(in: packet), next != title {
            title = next
            titleChanged = true
        }
    }

    /// A string option of the I/O context or the protocol under it (`AV_OPT_SEARCH_CHILDREN`).
    private static func option(_ io: UnsafeMutablePointer<AVIOContext>, _ name: String) -> String? {
        var value: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(io, name, AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return nil }
        defer { av_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// `icy-name` from the ICY header lines FFmpeg keeps ("icy-name: Radio\n…").
    static func icyName(in headers: String) -> String? {
        for line in headers.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "icy-name" {
                let name = String(parts[1].drop { $0 == " " || $0 == "\t" })
                return name.isEmpty ? nil : name
            }
        }
        return nil
    }

    private static func sampleFormat(for format: AVSampleFormat, bits: Int32) -> SampleFormat {
        switch format {
        case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P: .int16
        case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_S64, AV_SAMPLE_FMT_S64P: bits > 0 && bits <= 16 ? .int16 : .int32
        default: .float32
        }
    }

    private static func interleaved(_ format: SampleFormat) -> AVSampleFormat {
        switch format {
        case .int16: AV_SAMPLE_FMT_S16
        case .int32: AV_SAMPLE_FMT_S32
        case .float32: AV_SAMPLE_FMT_FLT
        }
    }

    private static func release(
        formatContext: UnsafeMutablePointer<AVFormatContext>, io: inout UnsafeMutablePointer<AVIOContext>?
    ) {
        var context: UnsafeMutablePointer<AVFormatContext>? = formatContext
        avformat_close_input(&context)
        avio_closep(&io)
    }

    /// Why `avio_open2` failed, in the user's terms: the server's status line when it sent one.
    private static func openFailure(
        _ error: FFmpegError, url: String, interruption: StreamInterruption, timeout: Double
    ) -> StreamError {
        if error == .interrupted, interruption.didTimeOut { return StreamError(.timeout(seconds: timeout), url: url) }
        let statusLine = String(cString: vm_http_status_last())
        let lines = Int(vm_http_status_lines())
        if let status = HTTPStatusLine(statusLine) {
            if (300..<400).contains(status.code), lines > 8 { return StreamError(.redirectLoop, url: url) }
            if status.code >= 400 { return StreamError(.httpStatus(code: status.code, reason: status.reason), url: url) }
        }
        switch error {
        case .httpNotFound: return StreamError(.httpStatus(code: 404, reason: "Not Found"), url: url)
        case .httpForbidden: return StreamError(.httpStatus(code: 403, reason: "Forbidden"), url: url)
        case .httpUnauthorized: return StreamError(.httpStatus(code: 401, reason: "Unauthorized"), url: url)
        case .httpBadRequest: return StreamError(.httpStatus(code: 400, reason: "Bad Request"), url: url)
        default: break
        }
        let explained = String(cString: vm_last_error_message())
        if lines == 0, StreamURL(url)?.isSecure == true, !explained.isEmpty {
            return StreamError(.connection("TLS: \(explained) (a private certificate authority: --ca-file or VOICEMEMO_CA_FILE)"), url: url)
        }
        if lines == 0, error == .invalidData || error == .errno(EIO) {
            return StreamError(.connection("no HTTP reply (\(error))"), url: url)
        }
        return StreamError(.connection(error.description), url: url)
    }

    /// Why reading failed: a timeout, a drop, or undecodable data.
    private static func readFailure(
        _ error: FFmpegError, url: String, interruption: StreamInterruption, timeout: Double, probing: Bool
    ) -> StreamError {
        if error == .interrupted, interruption.didTimeOut { return StreamError(.timeout(seconds: timeout), url: url) }
        if error == .invalidData || error == .streamNotFound {
            return probing
                ? StreamError(.notAudio(contentType: "data FFmpeg does not recognise as audio"), url: url)
                : StreamError(.decode(error.description), url: url)
        }
        if error == .endOfFile, probing { return StreamError(.dropped, url: url) }
        return StreamError(.dropped, url: url)
    }
}

/// "HTTP/1.1 404 Not Found" → 404, "Not Found".
struct HTTPStatusLine: Equatable {
    var code: Int
    var reason: String

    init?(_ line: String) {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") || parts[0] == "ICY", let code = Int(parts[1]) else {
            return nil
        }
        self.code = code
        reason = parts.count > 2 ? String(parts[2]) : ""
    }
}
