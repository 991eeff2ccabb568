#ifndef VOICEMEMO_CALSA_SHIM_H
#define VOICEMEMO_CALSA_SHIM_H

#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * alsa-lib reports errors by printing "ALSA lib ..." lines on stderr, which would
 * smear a curses screen and cannot be handled by Swift (the handler is variadic).
 * voicememo_alsa_capture_errors() installs a handler that formats each message
 * into a per-thread buffer instead; voicememo_alsa_last_error() returns the last
 * one on the calling thread so that it becomes part of our own error message.
 */
static _Thread_local char voicememo_alsa_error_text[512];

static inline void voicememo_alsa_error_handler(const char *file, int line,
                                                const char *function, int err,
                                                const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    va_list args;
    va_start(args, fmt);
    vsnprintf(voicememo_alsa_error_text, sizeof voicememo_alsa_error_text, fmt, args);
    va_end(args);
}

/// Routes alsa-lib's messages into the per-thread buffer. Idempotent.
static inline int voicememo_alsa_capture_errors(void) {
    return snd_lib_error_set_handler(voicememo_alsa_error_handler);
}

/// The last message alsa-lib reported on this thread ("" if none).
static inline const char *voicememo_alsa_last_error(void) {
    return voicememo_alsa_error_text;
}

/// Forgets the last message on this thread.
static inline void voicememo_alsa_clear_error(void) {
    voicememo_alsa_error_text[0] = '\0';
}

#endif
