import CFFmpeg
import SoundFiles

/// One connection to a network stream, demuxed and decoded by FFmpeg into interleaved frames.
///
/// Every FFmpeg call for streams is here and in `StreamConnection`. `open` connects (the
/// connection follows http(s) redirects and counts what arrives), refuses a reply that is not
/// audio by its Content-Type, opens the container (`avformat_open_input`,
/// `avformat_find_stream_info`) — with the demuxer the Content-Type names when the reply has
/// no length (a live stream is not probed: `StreamContainer`), probed otherwise —, opens the
/// best audio stream's decoder and a resampler (libswresample) that interleaves without
/// changing the rate: integer PCM and FLAC come out as they were sent (int16, or int32 above 16
/// bits), lossy codecs as float. `decode()` then returns the next block until the stream ends.
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
    /// Where the stream ends (`StreamExtent`'s rule: a length, live, or the connection's close).
    public let extent: StreamExtent
    /// Whether its end is a drop, to reconnect (`extent` is `.live`).
    public var isLive: Bool { extent.isLive }
    /// The stream's length in seconds when the container tells (a file, not a live stream).
    public let duration: Double?
    /// The demuxer the Content-Type chose ("mp3"), or nil when the container was probed.
    public let chosenDemuxer: String?
    /// Bytes received on the connection so far.
    public var bytesReceived: Int64 { connection.bytesReceived }

    private let interruption: StreamInterruption
    private let timeout: Double
    /// The connection and every FFmpeg context over it, freed in one place.
    private let contexts: DecoderContexts
    private var connection: StreamConnection { contexts.connection }
    private let streamIndex: Int32
    private var isDraining = false
    private var lastMetadataPacket = ""
    /// Frames `decode()` has delivered, to tell a file sent until close that ended early.
    private var framesDecoded = 0
    /// The converted block `decode()` returns, grown as needed.
    private var output: UnsafeMutableRawPointer
    private var outputCapacityFrames = 0

    /// The latest ICY `StreamTitle`, and whether it changed at the last `decode()`.
    public private(set) var title: String?
    public private(set) var titleChanged = false

    /// Connects to `url` and prepares to decode its audio.
    ///
    /// Whatever a failure leaves half-built (the connection, the container, the decoder) is
    /// `contexts`', freed when it goes: no failure path frees anything itself.
    ///
    /// - Parameters:
    ///   - target: the format to deliver instead of the stream's own (a recording's rate and
    ///     channels; resampled and remixed by libswresample); nil keeps the stream's.
    ///   - arrival: told once a second, on this thread, how fast bytes arrive (while this
    ///     decoder opens and decodes).
    ///   - connected: called once the server's reply is in and is not refused (before the
    ///     container is opened), on this thread.
    /// - Throws: `StreamError`: the server's HTTP status, a redirect loop or a redirect to
    ///   another scheme, a timeout, a refused connection or TLS failure, a reply that is not
    ///   audio, or audio nothing here decodes.
    public init(
        url: String, options: StreamOptions, interruption: StreamInterruption, target: StreamFormat? = nil,
        arrival: ((StreamArrival) -> Void)? = nil, connected: (() -> Void)? = nil
    ) throws(StreamError) {
        self.url = url
        self.interruption = interruption
        self.timeout = options.timeout
        let opened = try Self.connect(url: url, options: options, interruption: interruption, arrival: arrival, connected: connected)
        contexts = opened.contexts
        chosenDemuxer = opened.demuxer
        streamName = opened.streamName
        extent = opened.extent
        let connection = opened.contexts.connection
        let audio = try Self.openDecoder(
            in: opened.contexts, container: opened.container, contentType: connection.contentType, url: url)
        streamIndex = audio.index
        codecName = audio.codecName
        format = target ?? audio.format
        let length = opened.container.pointee.duration
        duration = extent != .live && length > 0 ? Double(length) / Double(AV_TIME_BASE) : nil
        if audio.bitRate > 0 { connection.bitRate = Int(audio.bitRate) }
        opened.contexts.packet = av_packet_alloc()
        opened.contexts.frame = av_frame_alloc()
        output = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16)
    }

    /// Connects, refuses a reply whose Content-Type is text, and opens the container: with the
    /// demuxer the type names when the reply has no length, probed when it has one or when the
    /// named demuxer does not recognise the bytes (then on a second connection). The stream's
    /// name and extent are the first reply's, the one that chose the demuxer.
    private static func connect(
        url: String, options: StreamOptions, interruption: StreamInterruption,
        arrival: ((StreamArrival) -> Void)?, connected: (() -> Void)?
    ) throws(StreamError) -> (
        contexts: DecoderContexts, container: UnsafeMutablePointer<AVFormatContext>, demuxer: String?,
        streamName: String?, extent: StreamExtent
    ) {
        var connection = try StreamConnection(url: url, options: options, interruption: interruption, arrival: arrival)
        let contentType = connection.contentType
        let type = contentType.lowercased()
        if type.hasPrefix("text/") || type.hasPrefix("application/xhtml") || type.hasPrefix("application/json") {
            throw StreamError(.notAudio(contentType: contentType), url: url)
        }
        connected?()
        let streamName = StreamConnection.icyValue("icy-name", in: connection.icyHeaders)
        let extent = connection.extent
        // A reply without a length arrives as it is made: its demuxer is the one its type names.
        // A file with a length arrives as fast as the network goes, so probing it costs nothing
        // and survives a server that names the wrong type.
        var demuxer: String? = if case .length = extent { nil } else { StreamContainer.demuxer(forContentType: contentType) }
        var opened: UnsafeMutablePointer<AVFormatContext>
        do {
            opened = try openContainer(connection, demuxer: demuxer, url: url, interruption: interruption, timeout: options.timeout)
        } catch let failure where demuxer != nil && isUnrecognised(failure) {
            // The type was wrong: connect again and let FFmpeg look.
            connection.close()
            connection = try StreamConnection(url: url, options: options, interruption: interruption, arrival: arrival)
            demuxer = nil
            opened = try openContainer(connection, demuxer: nil, url: url, interruption: interruption, timeout: options.timeout)
        }
        return (DecoderContexts(connection: connection, formatContext: opened), opened, demuxer, streamName, extent)
    }

    /// Opens the decoder of the best audio stream in `contexts`' container (into `contexts`).
    ///
    /// - Returns: the stream's index, the codec's name ("mp3", not the decoder's "mp3float"),
    ///   the format it decodes to (interleaved, at its own rate) and its bit rate (0 unknown).
    private static func openDecoder(
        in contexts: DecoderContexts, container formatContext: UnsafeMutablePointer<AVFormatContext>, contentType: String,
        url: String
    ) throws(StreamError) -> (index: Int32, codecName: String, format: StreamFormat, bitRate: Int64) {
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(formatContext, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = formatContext.pointee.streams[Int(index)] else {
            throw FFmpegError(rawValue: index) == .decoderNotFound
                ? StreamError(.decode("no decoder for its audio"), url: url)
                : StreamError(.notAudio(contentType: contentType.isEmpty ? "no audio stream" : contentType), url: url)
        }
        contexts.codecContext = avcodec_alloc_context3(decoder)
        guard let codecContext = contexts.codecContext,
            avcodec_parameters_to_context(codecContext, stream.pointee.codecpar) >= 0,
            avcodec_open2(codecContext, decoder, nil) >= 0
        else {
            throw StreamError(.decode("cannot open the \(String(cString: decoder.pointee.name)) decoder"), url: url)
        }
        let rate = Int(codecContext.pointee.sample_rate)
        let channels = Int(codecContext.pointee.ch_layout.nb_channels)
        guard rate > 0, (1...32).contains(channels) else {
            throw StreamError(.decode("its audio has \(channels) channels at \(rate) Hz; 1–32 channels can be played"), url: url)
        }
        let format = StreamFormat(
            sampleRate: rate, channels: channels,
            sampleFormat: sampleFormat(for: codecContext.pointee.sample_fmt, bits: codecContext.pointee.bits_per_raw_sample))
        return (index, String(cString: avcodec_get_name(decoder.pointee.id)), format, stream.pointee.codecpar.pointee.bit_rate)
    }

    /// Opens the container on `connection`: with `demuxer` (FFmpeg's name) when given, else probed.
    ///
    /// - Throws: `StreamError`; the connection stays open (its owner closes it).
    private static func openContainer(
        _ connection: StreamConnection, demuxer: String?, url: String, interruption: StreamInterruption, timeout: Double
    ) throws(StreamError) -> UnsafeMutablePointer<AVFormatContext> {
        guard let context = avformat_alloc_context() else { throw StreamError(.decode("out of memory"), url: url) }
        context.pointee.pb = connection.io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.interrupt_callback = interruption.callback
        // A live stream arrives in real time: probe what the first frames tell, not seconds of it.
        context.pointee.probesize = 32_768
        context.pointee.max_analyze_duration = 500_000
        // Probing a reply without a length (no type named its demuxer) looks at most at a
        // radio's burst, not at FFmpeg's default 1 MiB.
        if case .length = connection.extent {} else { context.pointee.format_probesize = 65_536 }
        let format = demuxer.flatMap { av_find_input_format($0) }
        var formatContext: UnsafeMutablePointer<AVFormatContext>? = context
        interruption.arm(seconds: timeout)
        let probed = avformat_open_input(&formatContext, url, format, nil)
        guard probed >= 0, let formatContext else {
            // avformat_open_input frees the context on failure; the I/O is the connection's.
            throw readFailure(FFmpegError(rawValue: probed), url: url, interruption: interruption, timeout: timeout, probing: true)
        }
        interruption.arm(seconds: timeout)
        let found = avformat_find_stream_info(formatContext, nil)
        guard found >= 0 else {
            release(formatContext)
            throw readFailure(FFmpegError(rawValue: found), url: url, interruption: interruption, timeout: timeout, probing: true)
        }
        return formatContext
    }

    /// Whether `failure` says the bytes were not the container expected (so probing may find another).
    private static func isUnrecognised(_ failure: StreamError) -> Bool {
        if case .notAudio = failure.kind { return true }
        return false
    }

    deinit {
        close()
    }

    /// Releases the connection and the decoder. Idempotent.
    public func close() {
        contexts.release()
        if outputCapacityFrames >= 0 {
            output.deallocate()
            outputCapacityFrames = -1
        }
    }

    /// The next decoded block: interleaved frames in `format`, valid until the next call;
    /// 0 frames at the end of the stream.
    ///
    /// - Throws: `StreamError`: a timeout (no byte for `--timeout` s), a dropped connection (a
    ///   Content-Length not reached, a reset, a file sent until close that closed over
    ///   `StreamExtent.toleratedShortfall` short of its container's length), or data that cannot
    ///   be decoded.
    public func decode() throws(StreamError) -> (UnsafeRawPointer, frames: Int) {
        titleChanged = false
        guard let codecContext = contexts.codecContext, let frame = contexts.frame, let packet = contexts.packet,
            let formatContext = contexts.formatContext
        else { return (UnsafeRawPointer(output), 0) }
        while true {
            let received = avcodec_receive_frame(codecContext, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                let frames = try convert(frame)
                framesDecoded += frames
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
                guard readError == .endOfFile || isClose(readError) else {
                    if isCutShort { throw StreamError(.dropped, url: url) }
                    throw Self.readFailure(readError, url: url, interruption: interruption, timeout: timeout, probing: false)
                }
                if let error = connection.readError, !isClose(error) {
                    throw Self.readFailure(error, url: url, interruption: interruption, timeout: timeout, probing: false)
                }
                if isCutShort { throw StreamError(.dropped, url: url) }
                let received = Double(framesDecoded) / Double(format.sampleRate)
                if extent.endsShort(received: received, announced: duration) { throw StreamError(.dropped, url: url) }
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
    private var isCutShort: Bool { connection.isCutShort }

    /// Whether `error` is how the server closing a reply sent until close reads: FFmpeg's http
    /// layer reports a close without a length as EIO ("Stream ends prematurely"), a reset as
    /// ECONNRESET.
    private func isClose(_ error: FFmpegError) -> Bool {
        extent == .untilClose && error == .errno(EIO)
    }

    /// Interleaves `frame` into `output` in `format`; the frame count.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(StreamError) -> Int {
        let input = (frame.pointee.format, frame.pointee.sample_rate, frame.pointee.ch_layout.nb_channels)
        if contexts.resampler == nil || contexts.resamplerInput.map({ $0 != input }) ?? true {
            if contexts.resampler != nil { swr_free(&contexts.resampler) }
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
            contexts.resampler = context
            contexts.resamplerInput = input
        }
        let capacity = Int(swr_get_out_samples(contexts.resampler, frame.pointee.nb_samples)) + 32
        if capacity > outputCapacityFrames {
            output.deallocate()
            output = UnsafeMutableRawPointer.allocate(byteCount: capacity * format.bytesPerFrame, alignment: 16)
            outputCapacityFrames = capacity
        }
        var planes: UnsafeMutablePointer<UInt8>? = output.assumingMemoryBound(to: UInt8.self)
        let converted = frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 32) { input in
            swr_convert(contexts.resampler, &planes, Int32(outputCapacityFrames), input, frame.pointee.nb_samples)
        }
        guard converted >= 0 else {
            throw StreamError(.decode("converting its audio failed: \(FFmpegError(rawValue: converted))"), url: url)
        }
        return Int(converted)
    }

    /// Reads the ICY metadata packet FFmpeg's http layer keeps, and the title in it.
    private func checkMetadata() {
        guard let packet = connection.metadataPacket, packet != lastMetadataPacket else { return }
        lastMetadataPacket = packet
        if let next = IcyMetadata.streamTitle(in: packet), next != title {
            title = next
            titleChanged = true
        }
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

    /// Closes the container (not the I/O under it: the connection's).
    fileprivate static func release(_ formatContext: UnsafeMutablePointer<AVFormatContext>) {
        var context: UnsafeMutablePointer<AVFormatContext>? = formatContext
        avformat_close_input(&context)
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

/// What a `StreamDecoder` holds of FFmpeg's: the connection and the contexts over it, freed in
/// one place (`release()`), which `StreamDecoder.close()` calls and which runs when this goes, so
/// an init that fails half-way frees what it had made by letting go of it.
private final class DecoderContexts {
    let connection: StreamConnection
    var formatContext: UnsafeMutablePointer<AVFormatContext>?
    var codecContext: UnsafeMutablePointer<AVCodecContext>?
    var resampler: OpaquePointer?
    /// What `resampler` was made for: the frames' sample format, rate and channels.
    var resamplerInput: (format: Int32, rate: Int32, channels: Int32)?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?

    init(connection: StreamConnection, formatContext: UnsafeMutablePointer<AVFormatContext>) {
        self.connection = connection
        self.formatContext = formatContext
    }

    deinit {
        release()
    }

    /// Frees the contexts, then closes the connection under them. Idempotent.
    func release() {
        av_packet_free(&packet)
        av_frame_free(&frame)
        if codecContext != nil { avcodec_free_context(&codecContext) }
        if resampler != nil { swr_free(&resampler) }
        if let formatContext {
            StreamDecoder.release(formatContext)
            self.formatContext = nil
        }
        connection.close()
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
