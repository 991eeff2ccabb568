import CFFmpeg

/// An FFmpeg error code (a negative `AVERROR` value), with the named codes Streaming and the
/// M4A files decide on.
///
/// Its description is FFmpeg's own text (`av_strerror`).
public struct FFmpegError: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// End of the input. The corresponding C error is `AVERROR_EOF`.
    public static var endOfFile: FFmpegError { .init(rawValue: vm_averror_eof()) }
    /// Try again after the other side moved. The corresponding C error is `AVERROR(EAGAIN)`.
    public static var tryAgain: FFmpegError { .init(rawValue: vm_averror_eagain()) }
    /// The interrupt callback stopped the call. The corresponding C error is `AVERROR_EXIT`.
    public static var interrupted: FFmpegError { .init(rawValue: vm_averror_exit()) }
    /// Not data FFmpeg understands. The corresponding C error is `AVERROR_INVALIDDATA`.
    public static var invalidData: FFmpegError { .init(rawValue: vm_averror_invaliddata()) }
    /// No such stream in the input. The corresponding C error is `AVERROR_STREAM_NOT_FOUND`.
    public static var streamNotFound: FFmpegError { .init(rawValue: vm_averror_stream_not_found()) }
    /// No decoder for the codec. The corresponding C error is `AVERROR_DECODER_NOT_FOUND`.
    public static var decoderNotFound: FFmpegError { .init(rawValue: vm_averror_decoder_not_found()) }
    /// An unknown URL scheme. The corresponding C error is `AVERROR_PROTOCOL_NOT_FOUND`.
    public static var protocolNotFound: FFmpegError { .init(rawValue: vm_averror_protocol_not_found()) }
    /// HTTP 400. The corresponding C error is `AVERROR_HTTP_BAD_REQUEST`.
    public static var httpBadRequest: FFmpegError { .init(rawValue: vm_averror_http_bad_request()) }
    /// HTTP 401. The corresponding C error is `AVERROR_HTTP_UNAUTHORIZED`.
    public static var httpUnauthorized: FFmpegError { .init(rawValue: vm_averror_http_unauthorized()) }
    /// HTTP 403. The corresponding C error is `AVERROR_HTTP_FORBIDDEN`.
    public static var httpForbidden: FFmpegError { .init(rawValue: vm_averror_http_forbidden()) }
    /// HTTP 404. The corresponding C error is `AVERROR_HTTP_NOT_FOUND`.
    public static var httpNotFound: FFmpegError { .init(rawValue: vm_averror_http_not_found()) }
    /// Another HTTP 4xx. The corresponding C error is `AVERROR_HTTP_OTHER_4XX`.
    public static var httpOther4xx: FFmpegError { .init(rawValue: vm_averror_http_other_4xx()) }
    /// An HTTP 5xx. The corresponding C error is `AVERROR_HTTP_SERVER_ERROR`.
    public static var httpServerError: FFmpegError { .init(rawValue: vm_averror_http_server_error()) }

    /// `AVERROR(errno)`.
    public static func errno(_ code: Int32) -> FFmpegError { .init(rawValue: vm_averror(code)) }

    /// Whether this is an HTTP status FFmpeg turned into an error.
    public var isHTTPStatus: Bool {
        [Self.httpBadRequest, .httpUnauthorized, .httpForbidden, .httpNotFound, .httpOther4xx, .httpServerError]
            .contains(self)
    }

    /// FFmpeg's text for the code (`av_strerror`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 128)
        buffer.withUnsafeMutableBufferPointer { vm_error_text(rawValue, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
