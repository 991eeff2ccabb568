import CFFmpeg
import CFFmpegLoader
import Glibc
import SoundFiles

/// How fast a connection's bytes have arrived, for a player to say when they are too slow.
public struct StreamArrival: Sendable, Equatable {
    /// Bytes received since the connection opened.
    public var bytes: Int64
    /// Seconds since it opened.
    public var seconds: Double
    /// The stream's bit rate when known (the codec's, else the server's `icy-br`), bits per second.
    public var bitRate: Int?

    public init(bytes: Int64, seconds: Double, bitRate: Int?) {
        self.bytes = bytes
        self.seconds = seconds
        self.bitRate = bitRate
    }

    /// Bytes per second so far.
    public var bytesPerSecond: Double { seconds > 0 ? Double(bytes) / seconds : 0 }

    /// Bytes per second the stream needs to play in real time, when its bit rate is known.
    public var neededBytesPerSecond: Double? { bitRate.map { Double($0) / 8 } }
}

/// One HTTP(S) connection to a stream: FFmpeg's http protocol (`avio_open2`, following
/// redirects) under an I/O context of ours (`avio_alloc_context`) that the demuxer reads.
///
/// Ours counts the bytes as they arrive, so the stall rule is "no byte for `--timeout` s" (each
/// byte re-arms the deadline: a server trickling 100 B/s is slow, not silent), and reports
/// the arrival rate once a second to whoever asked. It also holds what the reply said: its
/// Content-Type, its ICY headers, its length, whether it can be seeked, hence its `extent`.
///
/// With `StreamDecoder`, the only place FFmpeg is called for streams. One thread uses it.
final class StreamConnection {
    let url: String
    /// The reply's Content-Type, "" when it sent none.
    let contentType: String
    /// The ICY header lines FFmpeg keeps ("icy-name: Radio\n…"), "" when none.
    let icyHeaders: String
    /// Where the stream ends: a length, live, or the connection's close (`StreamExtent`'s rule).
    let extent: StreamExtent
    /// The server's `icy-br` in bits per second, then the codec's once it is open.
    var bitRate: Int?
    /// The I/O the demuxer reads (ours, over `http`).
    private(set) var io: UnsafeMutablePointer<AVIOContext>?
    /// FFmpeg's http(s) connection.
    private(set) var http: UnsafeMutablePointer<AVIOContext>?
    /// Bytes received so far.
    private(set) var bytesReceived: Int64 = 0

    private let interruption: StreamInterruption
    private let timeout: Double
    private let arrival: ((StreamArrival) -> Void)?
    private let openedAt: Int64
    private var reportedAt: Int64

    /// The size of our I/O buffer (FFmpeg's own default).
    private static let bufferSize: Int32 = 32_768
    /// How often `arrival` is told, nanoseconds.
    private static let reportInterval: Int64 = 1_000_000_000

    /// Connects to `url`, following redirects to http(s) URLs only.
    ///
    /// - Throws: `StreamError`: the server's status, a redirect loop or a redirect to another
    ///   scheme, a timeout, a refused connection or a TLS failure.
    init(
        url: String, options: StreamOptions, interruption: StreamInterruption,
        arrival: ((StreamArrival) -> Void)?
    ) throws(StreamError) {
        guard let parsed = StreamURL(url) else { throw StreamError(.unsupportedURL, url: url) }
        self.url = url
        self.interruption = interruption
        self.timeout = options.timeout
        self.arrival = arrival
        if let failure = FFmpegLibraries.loadFailure() {
            throw StreamError(.connection("streams need FFmpeg. " + failure), url: url)
        }
        vm_http_status_reset()
        interruption.beginConnection()

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
        var http: UnsafeMutablePointer<AVIOContext>?
        interruption.arm(seconds: options.timeout)
        let opened = avio_open2(&http, url, AVIO_FLAG_READ, &callback, &dictionary)
        if let location = interruption.refusedRedirect ?? Self.refusedLocation() {
            if opened >= 0 { avio_closep(&http) }
            throw StreamError(.redirectRefused(location: location), url: url)
        }
        if interruption.didOverflowHeaders {
            if opened >= 0 { avio_closep(&http) }
            throw StreamError(.endlessHeaders(limit: StreamInterruption.headerLimit), url: url)
        }
        guard opened >= 0, let http else {
            throw Self.openFailure(FFmpegError(rawValue: opened), url: url, interruption: interruption, timeout: options.timeout)
        }
        self.http = http
        contentType = Self.option(http, "mime_type") ?? ""
        icyHeaders = Self.option(http, "icy_metadata_headers") ?? ""
        let statusLine = String(cString: vm_http_status_last())
        let speaksICY = !icyHeaders.isEmpty || vm_http_icy_header_lines() > 0 || statusLine.hasPrefix("ICY ")
        extent = StreamExtent.of(length: avio_size(http), speaksICY: speaksICY, seekable: http.pointee.seekable != 0)
        bitRate = Self.icyValue("icy-br", in: icyHeaders).flatMap { Int($0) }.map { $0 * 1000 }
        openedAt = Self.now()
        reportedAt = openedAt

        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            avio_closep(&self.http)
            throw StreamError(.decode("out of memory"), url: url)
        }
        let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, Unmanaged.passUnretained(self).toOpaque(),
            { opaque, buffer, size in
                guard let opaque else { return vm_averror_eof() }
                return Unmanaged<StreamConnection>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, size: size)
            },
            nil,
            { opaque, offset, whence in
                guard let opaque else { return -1 }
                return Unmanaged<StreamConnection>.fromOpaque(opaque).takeUnretainedValue().seek(to: offset, whence: whence)
            })
        guard let context else {
            av_free(buffer)
            avio_closep(&self.http)
            throw StreamError(.decode("out of memory"), url: url)
        }
        context.pointee.seekable = http.pointee.seekable
        io = context
    }

    deinit {
        close()
    }

    /// Closes the connection and frees both I/O contexts. Idempotent.
    func close() {
        if io != nil {
            av_freep(&io!.pointee.buffer)
            avio_context_free(&io)
        }
        if http != nil { avio_closep(&http) }
    }

    /// Whether the connection ended (or failed) before the Content-Length it announced.
    var isCutShort: Bool {
        guard let http, case .length(let size) = extent, http.pointee.eof_reached != 0 || http.pointee.error < 0 else {
            return false
        }
        return avio_tell(http) < size
    }

    /// The error the connection stopped on, other than its end; nil if none.
    var readError: FFmpegError? {
        guard let http, http.pointee.error < 0 else { return nil }
        let error = FFmpegError(rawValue: http.pointee.error)
        return error == .endOfFile ? nil : error
    }

    /// The latest ICY metadata packet FFmpeg's http layer keeps ("StreamTitle='…';").
    var metadataPacket: String? {
        http.flatMap { Self.option($0, "icy_metadata_packet") }
    }

    // MARK: FFmpeg's callbacks (on the reading thread)

    private func read(into buffer: UnsafeMutablePointer<UInt8>?, size: Int32) -> Int32 {
        guard let http else { return vm_averror_eof() }
        let got = avio_read_partial(http, buffer, size)
        guard got > 0 else { return got == 0 ? vm_averror_eof() : got }
        bytesReceived += Int64(got)
        // A byte arrived: the stall deadline starts again.
        interruption.arm(seconds: timeout)
        if let arrival {
            let now = Self.now()
            if now - reportedAt >= Self.reportInterval {
                reportedAt = now
                arrival(StreamArrival(bytes: bytesReceived, seconds: Double(now - openedAt) / 1e9, bitRate: bitRate))
            }
        }
        return got
    }

    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        guard let http else { return -1 }
        if whence & AVSEEK_SIZE != 0 { return avio_size(http) }
        return avio_seek(http, offset, whence & ~AVSEEK_FORCE)
    }

    // MARK: Private

    /// The last Location header, when its scheme is one a stream is not followed to.
    private static func refusedLocation() -> String? {
        guard vm_http_locations() > 0 else { return nil }
        let location = String(cString: vm_http_location_last())
        return StreamRedirect.isFollowed(location) ? nil : location
    }

    /// A string option of the I/O context or the protocol under it (`AV_OPT_SEARCH_CHILDREN`).
    static func option(_ io: UnsafeMutablePointer<AVIOContext>, _ name: String) -> String? {
        var value: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(io, name, AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return nil }
        defer { av_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// The value of header `name` among the ICY header lines FFmpeg keeps ("icy-name: Radio\n…").
    static func icyValue(_ name: String, in headers: String) -> String? {
        for line in headers.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name {
                let value = String(parts[1].drop { $0 == " " || $0 == "\t" })
                return value.isEmpty ? nil : value
            }
        }
        return nil
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

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
