#ifndef VOICEMEMO_CFFMPEG_SHIM_H
#define VOICEMEMO_CFFMPEG_SHIM_H

/*
 * FFmpeg 5.1 (Debian libavformat-dev, libavcodec-dev, libswresample-dev, libavutil-dev) for
 * network streams and AAC/M4A. Swift cannot import FFmpeg's function-like macros (AVERROR,
 * AVERROR_EOF, the HTTP error tags, av_err2str) nor write its variadic log callback: the
 * static inline functions below stand in for them.
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
 * FFmpeg's log, kept off the terminal: messages are not printed, but the last HTTP status line
 * a thread's connection read ("HTTP/1.1 404 Not Found", from http.c's trace of each header line)
 * and the number of status lines are kept per thread, so a failed open names the server's own
 * status and reason, and a redirect loop is told from other I/O errors.
 */
/* Storage as function-local statics: Swift's importer emits functions, not header globals. */
static inline char *vm_http_status_storage(void) {
    static _Thread_local char line[160];
    return line;
}
static inline int *vm_http_status_counter(void) {
    static _Thread_local int count;
    return &count;
}

static inline char *vm_error_storage(void) {
    static _Thread_local char line[200];
    return line;
}

/* The last Location header a thread's connection read (a redirect's target), and how many. */
static inline char *vm_http_location_storage(void) {
    static _Thread_local char location[1024];
    return location;
}
static inline int *vm_http_location_counter(void) {
    static _Thread_local int count;
    return &count;
}
/* How many icy-* header lines (icy-metaint, icy-name, icy-pub, …) a thread's connection read. */
static inline int *vm_http_icy_counter(void) {
    static _Thread_local int count;
    return &count;
}

static void vm_log_callback(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_TRACE) return;
    if (level <= AV_LOG_ERROR) {
        /* The last error FFmpeg explained (a TLS certificate it did not trust, a short stream). */
        char *error = vm_error_storage();
        vsnprintf(error, 200, format, arguments);
        error[strcspn(error, "\n")] = 0;
        return;
    }
    if (strncmp(format, "header='", 8) != 0) return;
    char line[1100];
    vsnprintf(line, sizeof line, format, arguments);
    /* line is header='HTTP/1.1 404 Not Found'\n, or header='Location: /next'\n */
    const char *value = line + 8;
    if (strncasecmp(value, "icy-", 4) == 0) {
        *vm_http_icy_counter() += 1;
        return;
    }
    if (strncasecmp(value, "Location:", 9) == 0) {
        const char *target = value + 9;
        while (*target == ' ' || *target == '\t') target++;
        /* The value may hold a quote: only the one the trace closes with is dropped. */
        size_t length = strlen(target);
        if (length > 0 && target[length - 1] == '\n') length--;
        if (length > 0 && target[length - 1] == '\'') length--;
        if (length >= 1024) length = 1023;
        char *location = vm_http_location_storage();
        memcpy(location, target, length);
        location[length] = 0;
        *vm_http_location_counter() += 1;
        return;
    }
    if (strncmp(value, "HTTP/", 5) != 0 && strncmp(value, "ICY ", 4) != 0) return;
    size_t length = strcspn(value, "'\n");
    if (length >= 160) length = 159;
    char *status = vm_http_status_storage();
    memcpy(status, value, length);
    status[length] = 0;
    *vm_http_status_counter() += 1;
}

/* Installs the quiet log (idempotent). Trace level, so http.c reports its header lines. */
static inline void vm_install_log(void) {
    av_log_set_level(AV_LOG_TRACE);
    av_log_set_callback(vm_log_callback);
}

/* Forgets the calling thread's HTTP status lines (before an open). */
static inline void vm_http_status_reset(void) {
    vm_http_status_storage()[0] = 0;
    vm_error_storage()[0] = 0;
    *vm_http_status_counter() = 0;
    vm_http_location_storage()[0] = 0;
    *vm_http_location_counter() = 0;
    *vm_http_icy_counter() = 0;
}

/* The calling thread's last HTTP status line ("" if none). */
static inline const char *vm_http_status_last(void) { return vm_http_status_storage(); }
/* The calling thread's last error-level message from FFmpeg ("" if none). */
static inline const char *vm_last_error_message(void) { return vm_error_storage(); }
static inline int vm_http_status_lines(void) { return *vm_http_status_counter(); }
/* The calling thread's last Location header ("" if none), and how many it read. */
static inline const char *vm_http_location_last(void) { return vm_http_location_storage(); }
static inline int vm_http_locations(void) { return *vm_http_location_counter(); }
/* How many icy-* header lines the calling thread's connections read since the reset. */
static inline int vm_http_icy_header_lines(void) { return *vm_http_icy_counter(); }

#endif
