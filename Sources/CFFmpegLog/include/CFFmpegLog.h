#ifndef VOICEMEMO_CFFMPEGLOG_H
#define VOICEMEMO_CFFMPEGLOG_H

/*
 * FFmpeg's log, kept off the terminal: messages are not printed, but the last error FFmpeg
 * explained, the last HTTP status line a thread's connection read ("HTTP/1.1 404 Not Found",
 * from http.c's trace of each header line), its last Location header and how many of each are
 * kept per thread, so a failed open names the server's own status and reason, and a redirect
 * loop or a redirect to another scheme is told from other I/O errors.
 *
 * One definition for the whole process (CFFmpegLog.c). FFmpeg has one log callback per
 * process; when this storage lived in a header's static inline functions, Swift emitted a
 * private copy into every object file that used it, and a module read a copy that another
 * module's callback never wrote.
 */

/* Installs the quiet log (idempotent). Trace level, so http.c reports its header lines. */
void vm_install_log(void);

/* Forgets the calling thread's messages and header lines (before an open). */
void vm_http_status_reset(void);

/* The calling thread's last HTTP status line ("" if none), and how many it read. */
const char *vm_http_status_last(void);
int vm_http_status_lines(void);

/* The calling thread's last error-level message from FFmpeg ("" if none). */
const char *vm_last_error_message(void);

/* The calling thread's last Location header ("" if none), and how many it read. */
const char *vm_http_location_last(void);
int vm_http_locations(void);

/* How many icy-* header lines (icy-metaint, icy-name, icy-pub, …) the calling thread read. */
int vm_http_icy_header_lines(void);
/* How many bytes of header lines the calling thread read (status line included). */
long vm_http_header_bytes(void);

#endif
