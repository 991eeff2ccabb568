#ifndef VOICEMEMO_CPOCKETSPHINX_SHIM_H
#define VOICEMEMO_CPOCKETSPHINX_SHIM_H

#include <pocketsphinx.h>
#include <sphinxbase/err.h>

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
