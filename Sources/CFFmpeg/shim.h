#ifndef VOICEMEMO_CFFMPEG_SHIM_H
#define VOICEMEMO_CFFMPEG_SHIM_H

/*
 * FFmpeg 5.1 (Debian libavformat-dev, libavcodec-dev, libswresample-dev, libavutil-dev) for
 * network streams and AAC/M4A. Swift cannot import FFmpeg's function-like macros (AVERROR,
 * AVERROR_EOF, the HTTP error tags, av_err2str) nor write its variadic log callback: the
 * static inline functions below stand in for them.
 *
 * Headers only: the program does not link FFmpeg. CFFmpegLoader defines every FFmpeg function
 * the program calls and loads the libraries at the first call.
 */
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/dict.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* AVERROR(e): FFmpeg's negative errno. */
static inline int vm_averror(int errnum) { return AVERROR(errnum); }
static inline int vm_averror_eof(void) { return AVERROR_EOF; }
static inline int vm_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int vm_averror_exit(void) { return AVERROR_EXIT; }
static inline int vm_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int vm_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int vm_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int vm_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int vm_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int vm_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int vm_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int vm_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int vm_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int vm_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }

/* AV_NOPTS_VALUE: "no timestamp" (a cast Swift cannot import). */
static inline int64_t vm_nopts_value(void) { return AV_NOPTS_VALUE; }

/* av_err2str(e) into a caller's buffer (the macro uses a compound literal). */
static inline void vm_error_text(int errnum, char *buffer, size_t size) {
    av_strerror(errnum, buffer, size);
}

/*
 * FFmpeg's log (its last error, the HTTP status and Location lines) is kept by the C target
 * CFFmpegLoader, not here: storage in a header's static inline functions is copied into every
 * object file that uses it, while FFmpeg's log callback is one for the whole process.
 */

#endif
