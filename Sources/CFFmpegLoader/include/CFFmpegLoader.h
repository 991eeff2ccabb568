#ifndef VOICEMEMO_CFFMPEGLOADER_H
#define VOICEMEMO_CFFMPEGLOADER_H

/*
 * FFmpeg, loaded at first use. The program does not link FFmpeg's libraries: Loader.c defines
 * every FFmpeg function the program calls (hidden, so only this program's code binds to them),
 * each forwarding to the real one, which the first call loads with dlopen (libavutil,
 * libswresample, libavcodec, libavformat, by the major versions of the headers built against).
 * A run that never reads or writes an M4A file nor opens a stream never loads them, and skips
 * the dynamic loader's work for their ~130 dependencies. When they cannot be loaded, each
 * forwarding function fails (AVERROR(ENOSYS), NULL, or nothing) instead of crashing.
 *
 * FFmpeg's log, kept off the terminal (Log.c): messages are not printed, but the last error
 * FFmpeg explained, the last HTTP status line a thread's connection read ("HTTP/1.1 404 Not
 * Found", from http.c's trace of each header line), its last Location header and how many of
 * each are kept per thread, so a failed open names the server's own status and reason, and a
 * redirect loop or a redirect to another scheme is told from other I/O errors. The log is
 * installed right after the libraries are loaded.
 *
 * One definition for the whole process. FFmpeg has one log callback per process; when this
 * storage lived in a header's static inline functions, Swift emitted a private copy into every
 * object file that used it, and a module read a copy that another module's callback never wrote.
 */

/* Loads FFmpeg's libraries and installs the quiet log, once per process (thread-safe). Returns
   0 when they are loaded, -1 when one of them or one of its functions is missing. */
int vm_ffmpeg_load(void);

/* Why the load failed, naming the library ("libavformat.so.59: file too short"); "" after a
   load that succeeded or before the first. */
const char *vm_ffmpeg_load_error(void);

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
