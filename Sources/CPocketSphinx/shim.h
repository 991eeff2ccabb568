#ifndef VOICEMEMO_CPOCKETSPHINX_SHIM_H
#define VOICEMEMO_CPOCKETSPHINX_SHIM_H

/*
 * PocketSphinx's decoder, as much of it as transcription calls, and SphinxBase's configuration
 * and log. The module links libpocketsphinx and libsphinxbase by name (module.modulemap), not
 * through pkg-config: pocketsphinx.pc also names libsphinxad, the microphone library, which
 * brings libpulse, X11 and systemd's client libraries into every start (2 ms of each `voicememo`
 * run) for nothing we call. Without pkg-config's -I/usr/include/pocketsphinx, <pocketsphinx.h>
 * cannot find its own headers, so the decoder's functions are declared here, as pocketsphinx.h
 * (5prealpha, Debian 12) declares them; SphinxBase's headers are found where Debian puts them.
 */
#include <stddef.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/err.h>
#include <sphinxbase/prim_type.h>

typedef struct ps_decoder_s ps_decoder_t;
typedef struct ps_seg_s ps_seg_t;

ps_decoder_t *ps_init(cmd_ln_t *config);
arg_t const *ps_args(void);
int ps_free(ps_decoder_t *ps);
int ps_start_stream(ps_decoder_t *ps);
int ps_start_utt(ps_decoder_t *ps);
int ps_process_raw(ps_decoder_t *ps, int16 const *data, size_t n_samples, int no_search, int full_utt);
int ps_end_utt(ps_decoder_t *ps);
char const *ps_get_hyp(ps_decoder_t *ps, int32 *out_best_score);
ps_seg_t *ps_seg_iter(ps_decoder_t *ps);
ps_seg_t *ps_seg_next(ps_seg_t *seg);
char const *ps_seg_word(ps_seg_t *seg);
void ps_seg_frames(ps_seg_t *seg, int *out_sf, int *out_ef);

/*
 * PocketSphinx and SphinxBase log to stderr by default (every setting, every utterance): under
 * curses or in a script that lands on the terminal. err_set_logfp(NULL) turns the library's log
 * off for the whole process; the caller also passes -logfn /dev/null, so ps_init cannot reopen it.
 */
static inline void voicememo_sphinx_silence_log(void) {
    err_set_logfp(NULL);
}

/*
 * cmd_ln_init is variadic, which Swift cannot call: parse an argv of "-name", "value" pairs
 * against the decoder's own argument table instead. NULL when a name or value is refused.
 */
static inline cmd_ln_t *voicememo_sphinx_config(int argc, char **argv) {
    return cmd_ln_parse_r(NULL, ps_args(), argc, argv, 1);
}

#endif
