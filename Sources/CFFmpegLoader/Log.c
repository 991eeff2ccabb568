#include "CFFmpegLoader.h"
#include "Internal.h"

#include <libavutil/log.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Per thread: a connection's headers are read on the thread that opens it. */
static _Thread_local char status_line[160];
static _Thread_local int status_count;
static _Thread_local char error_line[200];
static _Thread_local char location_line[1024];
static _Thread_local int location_count;
static _Thread_local int icy_count;
static _Thread_local long header_bytes;

void vm_log_callback(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_TRACE) return;
    if (level <= AV_LOG_ERROR) {
        /* The last error FFmpeg explained (a TLS certificate it did not trust, a short stream). */
        vsnprintf(error_line, sizeof error_line, format, arguments);
        error_line[strcspn(error_line, "\n")] = 0;
        return;
    }
    if (strncmp(format, "header='", 8) != 0) return;
    char line[1100];
    vsnprintf(line, sizeof line, format, arguments);
    /* line is header='HTTP/1.1 404 Not Found'\n, or header='Location: /next'\n */
    const char *value = line + 8;
    /* Every header line counts (its text; the trace wraps it in header='…'): a server that
       never ends its headers is stopped at a bound (StreamInterruption). */
    header_bytes += (long)strlen(value);
    if (strncasecmp(value, "icy-", 4) == 0) {
        icy_count += 1;
        return;
    }
    if (strncasecmp(value, "Location:", 9) == 0) {
        const char *target = value + 9;
        while (*target == ' ' || *target == '\t') target++;
        /* The value may hold a quote: only the one the trace closes with is dropped. */
        size_t length = strlen(target);
        if (length > 0 && target[length - 1] == '\n') length--;
        if (length > 0 && target[length - 1] == '\'') length--;
        if (length >= sizeof location_line) length = sizeof location_line - 1;
        memcpy(location_line, target, length);
        location_line[length] = 0;
        location_count += 1;
        return;
    }
    if (strncmp(value, "HTTP/", 5) != 0 && strncmp(value, "ICY ", 4) != 0) return;
    size_t length = strcspn(value, "'\n");
    if (length >= sizeof status_line) length = sizeof status_line - 1;
    memcpy(status_line, value, length);
    status_line[length] = 0;
    status_count += 1;
}

void vm_http_status_reset(void) {
    status_line[0] = 0;
    error_line[0] = 0;
    status_count = 0;
    location_line[0] = 0;
    location_count = 0;
    icy_count = 0;
    header_bytes = 0;
}

const char *vm_http_status_last(void) { return status_line; }
int vm_http_status_lines(void) { return status_count; }
const char *vm_last_error_message(void) { return error_line; }
const char *vm_http_location_last(void) { return location_line; }
int vm_http_locations(void) { return location_count; }
int vm_http_icy_header_lines(void) { return icy_count; }
long vm_http_header_bytes(void) { return header_bytes; }
