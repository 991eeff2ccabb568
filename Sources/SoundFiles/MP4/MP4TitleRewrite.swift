import CFFmpeg
import CFFmpegLoader
import Foundation

/// Copies an MP4 (`.m4a`) file with a new title, its AAC packets as they are (remuxed by
/// FFmpeg, not encoded again): the audio decodes to the same samples, the edit list keeps the
/// same length, every other tag is kept.
enum MP4TitleRewrite {
    /// Writes `destination` (which must not exist) from `source` with `title` as its `©nam`
    /// and, when given, `comment` as its `©cmt`.
    ///
    /// - Throws: `SoundFileError` naming the file that could not be read or written; a partial
    ///   `destination` is left for the caller to remove.
    static func copy(_ source: String, to destination: String, title: String, comment: String? = nil) throws(SoundFileError) {
        if let failure = FFmpegLibraries.loadFailure() {
            throw SoundFileError(kind: .unsupported, path: source, detail: "M4A files need FFmpeg. " + failure)
        }
        vm_http_status_reset()
        var opening: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&opening, "file:" + source, nil, nil)
        guard opened >= 0, let input = opening else {
            throw SoundFileError(kind: .read, path: source, detail: MP4AudioWriter.explained(opened))
        }
        defer { avformat_close_input(&opening) }
        guard avformat_find_stream_info(input, nil) >= 0 else {
            throw SoundFileError(kind: .corrupt, path: source, detail: "FFmpeg cannot read its streams")
        }
        let index = av_find_best_stream(input, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let inStream = input.pointee.streams[Int(index)] else {
            throw SoundFileError(kind: .unsupported, path: source, detail: "the MP4 file holds no audio")
        }
        var output: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&output, nil, "ipod", destination) >= 0, let output else {
            throw SoundFileError(kind: .unsupported, path: destination, detail: "FFmpeg has no MP4 muxer")
        }
        defer {
            if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
            avformat_free_context(output)
        }
        guard let outStream = avformat_new_stream(output, nil),
            avcodec_parameters_copy(outStream.pointee.codecpar, inStream.pointee.codecpar) >= 0
        else {
            throw SoundFileError(kind: .write, path: destination, detail: "out of memory")
        }
        outStream.pointee.codecpar.pointee.codec_tag = 0
        outStream.pointee.time_base = inStream.pointee.time_base
        av_dict_copy(&output.pointee.metadata, input.pointee.metadata, 0)
        // The demuxer reads ©too as `encoder`; the muxer writes `encoding_tool` there.
        if let tool = av_dict_get(input.pointee.metadata, "encoder", nil, 0), let value = tool.pointee.value {
            av_dict_set(&output.pointee.metadata, "encoding_tool", value, 0)
        }
        av_dict_set(&output.pointee.metadata, "encoder", nil, 0)
        av_dict_set(&output.pointee.metadata, "title", title, 0)
        if let comment { av_dict_set(&output.pointee.metadata, "comment", comment, 0) }

        let created = avio_open(&output.pointee.pb, "file:" + destination, AVIO_FLAG_WRITE)
        guard created >= 0 else {
            throw SoundFileError(kind: .cannotOpen, path: destination, osError: MP4AudioWriter.osError(created))
        }
        var options: OpaquePointer?
        av_dict_set(&options, "movie_timescale", String(inStream.pointee.codecpar.pointee.sample_rate), 0)
        let header = avformat_write_header(output, &options)
        av_dict_free(&options)
        try check(header, destination, doing: "writing the MP4 header")
        guard let packet = av_packet_alloc() else {
            throw SoundFileError(kind: .write, path: destination, detail: "out of memory")
        }
        defer {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
        }
        while true {
            let read = av_read_frame(input, packet)
            if read < 0 {
                guard FFmpegError(rawValue: read) == .endOfFile else {
                    throw SoundFileError(kind: .read, path: source, detail: MP4AudioWriter.explained(read))
                }
                break
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            av_packet_rescale_ts(packet, inStream.pointee.time_base, outStream.pointee.time_base)
            packet.pointee.stream_index = 0
            packet.pointee.pos = -1
            try check(av_interleaved_write_frame(output, packet), destination, doing: "writing")
        }
        try check(av_write_trailer(output), destination, doing: "writing the MP4 index (moov)")
        try check(avio_closep(&output.pointee.pb), destination, doing: "closing the file")
    }

    private static func check(_ status: Int32, _ path: String, doing what: String) throws(SoundFileError) {
        guard status < 0 else { return }
        let osError = MP4AudioWriter.osError(status)
        throw SoundFileError(
            kind: SoundFileError.writeKind(forOSError: osError), path: path,
            detail: "\(what) failed" + (osError == nil ? ": \(MP4AudioWriter.explained(status))" : ""), osError: osError)
    }
}
