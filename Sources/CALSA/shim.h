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
/*
 * The buffer lives in a function-local static of a weak, non-inline function.
 * A file-scope static _Thread_local array is not emitted by Swift's C importer
 * (undefined reference at link time), and a static inline function would give
 * every object file that calls it its own buffer (each Swift file of a module
 * is a separate object in debug builds), so the handler would write one buffer
 * and clear/last_error would read another. The linker keeps exactly one weak
 * definition, so the whole program shares one buffer per thread.
 */
__attribute__((weak)) char *voicememo_alsa_error_buffer(void) {
    static _Thread_local char text[512];
    return text;
}

static inline void voicememo_alsa_error_handler(const char *file, int line,
                                                const char *function, int err,
                                                const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    va_list args;
    va_start(args, fmt);
    vsnprintf(voicememo_alsa_error_buffer(), 512, fmt, args);
    va_end(args);
}

/// Routes alsa-lib's messages into the per-thread buffer. Idempotent.
static inline int voicememo_alsa_capture_errors(void) {
    return snd_lib_error_set_handler(voicememo_alsa_error_handler);
}

/// The last message alsa-lib reported on this thread ("" if none).
static inline const char *voicememo_alsa_last_error(void) {
    return voicememo_alsa_error_buffer();
}

/// Forgets the last message on this thread.
static inline void voicememo_alsa_clear_error(void) {
    voicememo_alsa_error_buffer()[0] = '\0';
}

/*
 * Loads the global configuration (alsa.conf and whatever ALSA_CONFIG_PATH names)
 * and then the file at `path` on top of a private copy, for snd_pcm_open_lconf.
 * This defines test devices in-process without touching the environment, which
 * is shared by every thread. The caller owns *out and frees it with
 * snd_config_delete once the PCM opened with it is closed.
 * Returns 0 or a negative errno code.
 */
static inline int voicememo_alsa_load_config(const char *path, snd_config_t **out) {
    snd_config_t *top = NULL;
    snd_config_t *copy = NULL;
    snd_input_t *input = NULL;
    int err;
    *out = NULL;
    err = snd_config_update_ref(&top);
    if (err < 0) return err;
    err = snd_config_copy(&copy, top);
    snd_config_unref(top);
    if (err < 0) return err;
    err = snd_input_stdio_open(&input, path, "r");
    if (err < 0) { snd_config_delete(copy); return err; }
    err = snd_config_load(copy, input);
    snd_input_close(input);
    if (err < 0) { snd_config_delete(copy); return err; }
    *out = copy;
    return 0;
}

#endif
